import Foundation
import Testing

/// A Live Photo made with ffmpeg and exiftool (a JPEG and a two-second MOV of the same name, the
/// movie tagged with a content identifier as iPhones do), through tmux: one entry with a badge,
/// its motion played in Quick Look, moved as a pair and moved back as a pair.
@Suite(.serialized) struct LivePhotoTests {
    @Test func aLivePhotoIsOneEntryPlaysAndMovesAsAPair() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = folder.appendingPathComponent("IMG_0001.JPG").path, movie = folder.appendingPathComponent("IMG_0001.MOV").path
        let ffmpeg = ["/usr/bin/ffmpeg", "-v", "error", "-y", "-f", "lavfi"]
        #expect(TestEnvironment.run(ffmpeg[0], Array(ffmpeg.dropFirst()) + ["-i", "testsrc2=size=640x480:duration=1", "-frames:v", "1", still]).status == 0)
        #expect(TestEnvironment.run(ffmpeg[0], Array(ffmpeg.dropFirst()) + ["-i", "testsrc2=size=640x480:rate=30:duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", movie]).status == 0)
        _ = TestEnvironment.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Keys:ContentIdentifier=8F1A2B3C-0001", movie])
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("album"), withIntermediateDirectories: true)
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 30,
                                      environment: ["XDG_STATE_HOME": folder.appendingPathComponent(".state").path,
                                                    "XDG_DATA_HOME": folder.appendingPathComponent(".data").path])
        #expect(session.waitFor { $0.contains("IMG_0001.JPG ◉LIVE") && $0.contains("1 folders, 2 files") }, "one entry with a badge:\n\(session.screen())")
        #expect(!session.screen().contains("IMG_0001.MOV"))
        session.type("j")
        session.send("Space")
        #expect(session.waitFor(20) { $0.contains("p plays the Live Photo") }, "\(session.screen())")
        session.type("p")
        #expect(session.waitFor(20) { $0.contains("/ 0:02") && $0.contains("play/pause") }, "the motion plays with its time line:\n\(session.screen())")
        session.send("Escape")
        session.type("x")
        #expect(session.waitFor { $0.contains("1 item to move (with its Live Photo movie)") }, "\(session.screen())")
        session.type("g")
        session.send("Enter")
        #expect(session.waitFor { $0.contains("/album") && $0.contains("0 files") }, "\(session.screen())")
        session.type("p")
        #expect(session.waitFor(20) { $0.contains("IMG_0001.JPG ◉LIVE") }, "the pair arrives as one:\n\(session.screen())")
        let album = folder.appendingPathComponent("album")
        #expect(FileManager.default.fileExists(atPath: album.appendingPathComponent("IMG_0001.MOV").path) && !FileManager.default.fileExists(atPath: movie))
        session.type("z")
        #expect(session.waitFor(20) { $0.contains("undone: the move of 2 items") }, "\(session.screen())")
        #expect(FileManager.default.fileExists(atPath: movie) && FileManager.default.fileExists(atPath: still), "both back")
        session.type("q")
    }

    @Test func aMotionPhotoShowsItsBadgePlaysItsMovieAndIsNotEditedIntoAStill() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-motion")
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = folder.appendingPathComponent("still.jpg").path, movie = folder.appendingPathComponent("movie.mp4").path
        let photo = folder.appendingPathComponent("PXL_0001.MP.jpg")
        let ffmpeg = ["-v", "error", "-y", "-f", "lavfi"]
        #expect(TestEnvironment.run("/usr/bin/ffmpeg", ffmpeg + ["-i", "testsrc2=size=640x480:duration=1", "-frames:v", "1", still]).status == 0)
        #expect(TestEnvironment.run("/usr/bin/ffmpeg", ffmpeg + ["-i", "testsrc2=size=320x240:rate=30:duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", movie]).status == 0)
        let length = try Data(contentsOf: URL(fileURLWithPath: movie)).count
        #expect(TestEnvironment.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
                                                          "-XMP-GCamera:MicroVideoOffset=\(length)", still]).status == 0)
        try (Data(contentsOf: URL(fileURLWithPath: still)) + Data(contentsOf: URL(fileURLWithPath: movie))).write(to: photo)
        try FileManager.default.removeItem(atPath: still)
        try FileManager.default.removeItem(atPath: movie)
        let original = try Data(contentsOf: photo)
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 30)
        #expect(session.waitFor(20) { $0.contains("PXL_0001.MP.jpg ◉MOTION") }, "the badge, once its picture is made:\n\(session.screen())")
        session.send("Space")
        #expect(session.waitFor(20) { $0.contains("p plays the Motion Photo") }, "\(session.screen())")
        session.type("e")
        #expect(session.waitFor { $0.contains("would lose the movie inside it") }, "\(session.screen())")
        session.type("p")
        #expect(session.waitFor(20) { $0.contains("/ 0:02") && $0.contains("play/pause") }, "the movie inside plays:\n\(session.screen())")
        session.type("q")
        #expect(try Data(contentsOf: photo) == original)
    }
}
