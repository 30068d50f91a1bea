import Providers
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Thumbnails files inside this process (no worker pool, no pipes): the baseline that the
/// benchmark compares `qlbrowse thumbnail` with to measure what process isolation costs.
enum InProcessRun {
    static func run(files: [String], side: Int) -> Int32 {
        try? VipsDecoder.start()
        let sniffer = ContentSniffer()
        let providers = BuiltInProviders()
        var failures: Int32 = 0
        for path in files {
            let type = sniffer.contentType(ofFile: path)
            let job = ProviderJob(path: path, contentType: type, box: PixelSize(width: side, height: side), wantsLowQuality: false, wantsThumbnail: true)
            var made: PixelImage?
            for provider in providers.providers(for: type, path: path) where made == nil {
                try? provider.makeImages(for: job) { if $0.type == .thumbnail { made = $0.image } }
            }
            guard let made else { failures = 1; continue }
            let png = PNGEncoder.encode(made)
            let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
            FileDescriptorWriter.writeAll(png, to: fd)
            close(fd)
        }
        return failures
    }
}
