import Foundation
import SystemKit
import Testing
import ThumbnailKit
@testable import Providers

/// The search for a video frame worth showing: positions reached by decoding on when the
/// decoder already stands past the keyframe a seek would land on, and a flat video not decoded
/// at every position.
@Suite struct VideoFrameSearchTests {
    @Test func aSeekIsSkippedOnlyWhenTheDecoderStandsBetweenTheKeyframeAndTheTarget() {
        // One keyframe at 0, the decoder at 1 s: 2.5 s is reached by decoding on.
        #expect(!VideoProvider.needsSeek(to: 2.5, keyframeBefore: 0, decodedUpTo: 1))
        // A keyframe after where the decoder stands: jumping there is shorter.
        #expect(VideoProvider.needsSeek(to: 2.5, keyframeBefore: 2, decodedUpTo: 1))
        // The target is behind the decoder (0.04 after 0.75): only a seek goes back.
        #expect(VideoProvider.needsSeek(to: 0.4, keyframeBefore: 0, decodedUpTo: 7.5))
        // Nothing known: seek.
        #expect(VideoProvider.needsSeek(to: 2.5, keyframeBefore: nil, decodedUpTo: 1))
        #expect(VideoProvider.needsSeek(to: 2.5, keyframeBefore: 0, decodedUpTo: nil))
    }

    /// A 20 s white video with a single keyframe (500 frames), as `9bitwhite.mkv` of the corpus:
    /// no frame is worth showing, so every position is tried. Seeking back to the keyframe for each
    /// decoded 50 + 125 + 250 + 375 + 20 = 820 frames (0.4 s for that file, the longest thumbnail
    /// of a desktop's first screen); decoding on from one position to the next needs at most the
    /// 375 up to 75 %, plus 20 for 4 %.
    @Test func aFlatVideoWithOneKeyframeIsDecodedOnceAcross() throws {
        // (Without the search's time budget, which would end it early on a slow machine either way.)
        let folder = try TemporaryFolder()
        let path = folder.path + "/white.mp4"
        let made = ProcessOutput.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                      "color=c=white:s=160x120:r=25:d=20", "-c:v", "libx264", "-preset", "ultrafast", "-g", "1000",
                                      "-pix_fmt", "yuv420p", path], seconds: 60)
        try #require(made != nil && FileManager.default.fileExists(atPath: path), "ffmpeg could not make the video")
        let media = try MediaFile(path: path)
        let stream = try #require(media.videoStream)
        let decoder = try media.decoder(for: stream)
        let job = ProviderJob(path: path, contentType: ContentType("video/mp4"), box: PixelSize(width: 64, height: 64),
                              wantsLowQuality: false, wantsThumbnail: true)
        let tally = FrameTally()
        let image = try VideoProvider().bestFrame(media: media, stream: stream, decoder: decoder, job: job, budget: .seconds(600), tally: tally)
        #expect(image?.width == 64 && image?.height == 48)
        #expect(tally.frames > 0 && tally.frames <= 375 + 20 + 8, "\(tally.frames) frames decoded")
    }

    /// Makes a 20 s video of one colour with one keyframe (500 frames) in `folder`, as `name` (its
    /// extension picks the container).
    private func flatVideo(_ folder: TemporaryFolder, _ name: String, colour: String = "white") throws -> String {
        let path = folder.path + "/" + name
        _ = ProcessOutput.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                               "color=c=\(colour):s=160x120:r=25:d=20", "-c:v", "libx264", "-preset", "ultrafast", "-g", "1000",
                               "-pix_fmt", "yuv420p", path], seconds: 60)
        try #require(FileManager.default.fileExists(atPath: path), "ffmpeg could not make \(name)")
        return path
    }

    /// After a dark first frame (an intro) the search goes on to the next position whatever the
    /// budget (a heavy video's first position alone may take longer), then stops once the budget
    /// is spent: with none, 10 % (50 frames in) and 25 % (decoded on to frame 125), not 50 %.
    @Test func aDarkStartIsWorthOneMorePositionThenTheBudgetDecides() throws {
        let folder = try TemporaryFolder()
        let tally = try search(try flatVideo(folder, "black.mp4", colour: "black"), budget: .zero)
        #expect(tally.frames > 100, "only \(tally.frames) frames decoded: the second position was not tried")
        #expect(tally.frames <= 125 + 8, "\(tally.frames) frames decoded: the search went past the second position")
    }

    /// A flat first frame that is not dark (a white clip, a slide) gets no position past the
    /// budget: with none, the search ends at 10 % (50 frames in).
    @Test func aFlatBrightStartGetsNoPositionPastTheBudget() throws {
        let folder = try TemporaryFolder()
        let tally = try search(try flatVideo(folder, "white.mp4"), budget: .zero)
        #expect(tally.frames > 0 && tally.frames <= 50 + 8, "\(tally.frames) frames decoded: the search went past the first position")
    }

    /// Runs the search on the file's video with `budget`; how many frames it decoded.
    private func search(_ path: String, budget: Duration) throws -> FrameTally {
        let media = try MediaFile(path: path)
        let stream = try #require(media.videoStream)
        let job = ProviderJob(path: path, contentType: ContentType("video/mp4"), box: PixelSize(width: 64, height: 64),
                              wantsLowQuality: false, wantsThumbnail: true)
        let tally = FrameTally()
        let image = try VideoProvider().bestFrame(media: media, stream: stream, decoder: try media.decoder(for: stream), job: job,
                                                  budget: budget, tally: tally)
        #expect(image != nil)
        return tally
    }

    /// Only MP4/QuickTime and Matroska/WebM index every keyframe; an MPEG-TS index holds the
    /// keyframes read so far, and trusting it made the search decode on where a seek was shorter.
    @Test func onlyContainersThatIndexEveryKeyframeAreDecodedOn() throws {
        let folder = try TemporaryFolder()
        for (name, indexed) in [("white.mp4", true), ("white.mkv", true), ("white.ts", false)] {
            let media = try MediaFile(path: try flatVideo(folder, name))
            #expect(VideoProvider.indexesEveryKeyframe(media) == indexed, "\(name)")
        }
    }
}
