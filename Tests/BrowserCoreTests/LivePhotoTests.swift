import Testing
@testable import BrowserCore
import FileSystemKit

/// Live Photos as one entry: the movie is shown through its still whichever came first in the
/// listing, and file operations take it along.
@Suite struct LivePhotoTests {
    @Test func pairsAreFoundByNameCaseAside() {
        var pairs = LivePhotoPairs()
        #expect(pairs.add(Array("IMG_0001.MOV".utf8)) == nil)
        #expect(pairs.add(Array("img_0001.heic".utf8)) == Array("IMG_0001.MOV".utf8), "the still makes the movie part of a pair")
        #expect(pairs.add(Array("IMG_0002.JPG".utf8)) == nil && pairs.add(Array("notes.mov.txt".utf8)) == nil)
        #expect(pairs.isMovieOfAPair(Array("IMG_0001.MOV".utf8)) && !pairs.isMovieOfAPair(Array("IMG_0003.MOV".utf8)))
        #expect(pairs.movie(ofStill: Array("img_0001.heic".utf8)) == Array("IMG_0001.MOV".utf8) && pairs.movie(ofStill: Array("IMG_0002.JPG".utf8)) == nil)
        #expect(LivePhotoPairs.movieName("IMG_0001.MOV", forStill: "Beach sunset.heic") == "Beach sunset.MOV")
    }

    private func folder(_ batches: [[String]]) -> BrowserState {
        var state = BrowserState(folder: "/p", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        for (index, batch) in batches.enumerated() {
            state.apply(.listed(ticket: state.ticket, entries: EntryStore(batch.map { Entry(name: $0) }), complete: index == batches.count - 1))
        }
        return state
    }

    @Test func theMovieIsShownThroughItsStillWhicheverCameFirst() {
        for batches in [[["IMG_1.MOV", "a.txt"], ["IMG_1.HEIC"]], [["IMG_1.HEIC"], ["IMG_1.MOV", "a.txt"]], [["a.txt", "IMG_1.HEIC", "IMG_1.MOV"]]] {
            let state = folder(batches)
            #expect(state.entries.map(\.name) == ["a.txt", "IMG_1.HEIC"], "\(batches)")
            #expect(state.liveMovie(of: state.entries[1]) == "IMG_1.MOV")
        }
    }

    @Test func fileOperationsTakeTheMovieAlong() {
        var state = folder([["IMG_1.HEIC", "IMG_1.MOV", "z.txt"]])
        state.apply(.files(.cutMarked))
        #expect(state.clipboard?.paths == ["/p/IMG_1.HEIC", "/p/IMG_1.MOV"] && state.message?.contains("with its Live Photo movie") == true)
        #expect(state.apply(.files(.trashMarked)) == [.fileOperation(.trash, sources: ["/p/IMG_1.HEIC", "/p/IMG_1.MOV"], destination: nil)])
        state.apply(.files(.startRename))
        state.apply(.prompt(.backspace))
        state.apply(.prompt(.input("Beach")))
        #expect(state.apply(.prompt(.accept)) == [.applyBulkRename(folder: "/p", [.init(from: "IMG_1.HEIC", to: "Beach.HEIC"), .init(from: "IMG_1.MOV", to: "Beach.MOV")])],
                "renamed together, in one step that z undoes")
    }

    @Test func quickLookPlaysTheMotionOfALivePhoto() {
        var state = folder([["IMG_1.HEIC", "IMG_1.MOV"]])
        state.apply(.quickLook(.open))
        #expect(state.quickLookContent == .picture && state.quickLookPath == "/p/IMG_1.HEIC")
        state.apply(.key(.character(UInt32(UInt8(ascii: "p"))), .files(.paste)))
        #expect(state.quickLookContent == .timeline && state.quickLook.playing && state.quickLookPath == "/p/IMG_1.MOV")
        state.apply(.quickLookFacts(path: "/p/IMG_1.MOV", QuickLookFacts(duration: 2.5)))
        #expect(state.quickLook.duration == 2.5, "the movie's length is taken")
        #expect(state.clipboard == nil, "p plays, it does not paste")
    }

    @Test func aMotionPhotoPlaysOnceTheWorkerFindsItsMovieAndIsNotEdited() {
        var state = folder([["PXL_1.MP.jpg", "plain.jpg"]])
        state.apply(.navigation(.moveDown(1)))  // plain.jpg comes first
        state.apply(.quickLook(.open))
        #expect(!state.hasMotion, "unknown until the worker says")
        state.apply(.key(.character(UInt32(UInt8(ascii: "p"))), .files(.paste)))
        #expect(state.quickLookContent == .picture && state.clipboard == nil)
        state.apply(.quickLookFacts(path: "/p/PXL_1.MP.jpg", QuickLookFacts(duration: 2)))
        #expect(state.hasMotion && state.quickLookContent == .picture && !state.quickLook.playing, "a Motion Photo waits for p")
        state.apply(.edit(.start))
        #expect(state.quickEdit == nil && state.message?.contains("Motion Photo") == true)
        state.apply(.key(.character(UInt32(UInt8(ascii: "p"))), .files(.paste)))
        #expect(state.quickLookContent == .timeline && state.quickLook.playing && state.quickLookPath == "/p/PXL_1.MP.jpg")
        state.apply(.key(.special(.left), .move(.left)))
        #expect(state.selected?.name == "plain.jpg" && !state.hasMotion, "the next picture starts over")
    }
}

