import Foundation
import Testing

/// A new worker opens libav, libvips, libraw, libarchive and libqpdf (~150 of its libraries) only
/// when a file needs them: a PDF or a baseline JPEG is answered by a worker that never loaded them. Seen through the dynamic
/// loader's own trace (LD_DEBUG=files) of the real worker, started by the real `qlbrowse`.
@Suite struct WorkerStartTests {
    /// What the loader opened in every worker started for `files`, as one text.
    private func loaderTrace(_ files: [String], in folder: URL) throws -> String {
        let traces = folder.appendingPathComponent("ld-\(files.count)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        let wrapper = traces.appendingPathComponent("traced-thumbnailer").path
        let script = "#!/bin/sh\nLD_DEBUG=files LD_DEBUG_OUTPUT='\(traces.path)/ld' exec '\(TestEnvironment.thumbnailer)' \"$@\"\n"
        try TestEnvironment.writeFile(script, to: wrapper)
        let paths = files.map { TestEnvironment.fixtures.appendingPathComponent($0).path }
        // Without --json, as previewer scripts call it: facts (a JPEG's camera, read through libvips) are not asked for.
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--no-service", "-o", traces.path] + paths,
                                         environment: ["QLBROWSE_THUMBNAILER": wrapper,
                                                       "XDG_CACHE_HOME": traces.appendingPathComponent("cache").path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        for file in files {
            #expect(FileManager.default.fileExists(atPath: traces.appendingPathComponent(file + ".png").path), "no thumbnail of \(file): \(result.stdout)")
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: traces.path).filter { $0.hasPrefix("ld.") }
        #expect(!logs.isEmpty, "no worker wrote a loader trace")
        return try logs.map { try String(contentsOfFile: traces.appendingPathComponent($0).path, encoding: .utf8) }.joined()
    }

    @Test func decoderLibrariesAreOpenedOnlyForFilesThatNeedThem() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-worker-start")
        defer { try? FileManager.default.removeItem(at: folder) }

        let light = try loaderTrace(["doc.pdf", "landscape.jpg"], in: folder)
        #expect(light.contains("libpoppler-glib"), "the trace should show the linked libraries")
        for library in ["libavcodec", "libavformat", "libvips", "libraw", "libarchive", "libqpdf"] {
            #expect(!light.contains(library), "\(library) was loaded for a PDF and a baseline JPEG")
        }

        let heavy = try loaderTrace(["clip.mp4", "progressive.jpg", "camera.dng"], in: folder)
        for library in ["libavformat.so", "libavcodec.so", "libswscale.so", "libvips.so", "libraw.so"] {
            #expect(heavy.contains(library), "\(library) was not loaded for a video, a progressive JPEG and a DNG")
        }
    }

    /// libvips starts with openslide only (a slide is a TIFF too, so it must be there from the
    /// start): heif and jxl are opened by the first file only they read, magick and poppler
    /// (blocked) never. All of them cost every worker that opened libvips ~60 M instructions,
    /// libde265's tables and ImageMagick's ~20 libraries. A HEIC opens heif; a WebP or a
    /// progressive JPEG does not.
    @Test func libvipsModulesAreOpenedOnlyForFormatsOnlyAModuleReads() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-worker-modules")
        defer { try? FileManager.default.removeItem(at: folder) }

        let core = try loaderTrace(["progressive.jpg", "image.webp"], in: folder)
        #expect(core.contains("libvips.so"), "libvips should decode a progressive JPEG and a WebP")
        #expect(core.contains("vips-openslide.so"), "openslide should be opened with libvips")
        for library in ["vips-heif.so", "vips-jxl.so", "libheif", "vips-magick.so", "libMagickCore"] {
            #expect(!core.contains(library), "\(library) was loaded for a progressive JPEG and a WebP")
        }

        let heif = try loaderTrace(["image.heic"], in: folder)
        for library in ["vips-heif.so", "libheif"] {
            #expect(heif.contains(library), "\(library) was not loaded for a HEIC")
        }
        for library in ["vips-magick.so", "vips-poppler.so", "libMagickCore"] {
            #expect(!heif.contains(library), "\(library), whose loaders are blocked, was loaded")
        }
    }
}
