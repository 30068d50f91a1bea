import Testing
@testable import BrowserCore
import FileSystemKit

/// Quick Look's reducer and its position, one case per content.
@Suite struct QuickLookActionTests {
    @Test func eachKindStartsInItsOwnCase() {
        #expect(QuickLookPosition.start(for: Entry(name: "a.pdf")) == .pages(.init()))
        #expect(QuickLookPosition.start(for: Entry(name: "a.txt")) == .text(.init()))
        #expect(QuickLookPosition.start(for: Entry(name: "a.zip")).content == .members)
        #expect(QuickLookPosition.start(for: Entry(name: "a.mp4")) == .timeline(.init()))
        #expect(QuickLookPosition.start(for: Entry(name: "a.jpg")) == .picture(.init()))
        #expect(QuickLookPosition.start(for: Entry(name: "dir", isDirectory: true)) == .picture(.init()))
        guard case .timeline(let gif) = QuickLookPosition.start(for: Entry(name: "a.gif")) else {
            Issue.record("a GIF is a time line")
            return
        }
        #expect(gif.playing && gif.loops, "an animation starts playing, looping")
    }

    @Test func membersAreACaseOfTheirOwnAndBackIsThePictureAgain() {
        var state = BrowserState.quickLook(on: "book.epub")
        #expect(state.quickLook == .picture(.init()))
        state.apply(.quickLook(.toggleMembers))
        #expect(state.quickLook == .members(.init()) && state.quickLookContent == .members)
        state.apply(.quickLook(.step(3)))
        #expect(state.quickLook.line == 3)
        state.apply(.quickLook(.toggleMembers))
        #expect(state.quickLook == .picture(.init()), "back to the picture, at its start")
    }

    @Test func aCustomPreviewersTextTurnsAPictureIntoText() {
        var state = BrowserState.quickLook(on: "model.stl")
        #expect(state.quickLook.content == .picture)
        let effects = state.apply(.quickLookFacts(path: "/d/model.stl", QuickLookFacts(custom: .text)))
        #expect(state.quickLook == .text(.init(custom: true)) && state.quickLook.custom == .text)
        #expect(effects == [.readText(path: "/d/model.stl", line: 0, count: 20)], "its text is read at once")
        state.apply(.edit(.start))
        #expect(state.quickEdit == nil && state.message?.contains("not this file") == true, "a custom previewer's output is not edited")
    }

    @Test func digitsJumpOnATimeLineAndMeanNothingOnAPicture() {
        var video = BrowserState.quickLook(on: "film.mp4")
        video.apply(.quickLookFacts(path: "/d/film.mp4", QuickLookFacts(duration: 100)))
        video.apply(.quickLook(.digit("4")))
        video.apply(.quickLook(.digit("2")))
        #expect(video.quickLook.jump == "42")
        video.apply(.quickLook(.jump))
        #expect(video.quickLook.seconds == 42 && video.quickLook.jump.isEmpty)
        var photo = BrowserState.quickLook(on: "photo.jpg")
        photo.apply(.quickLook(.digit("4")))
        #expect(photo.quickLook == .picture(.init()), "a picture has no page or line to jump to")
    }

    @Test func aPositionLeftFromAnotherFileStartsOverWhenTheListingMovesTheCursor() {
        var state = BrowserState.quickLook(on: "doc.pdf")
        state.apply(.quickLookFacts(path: "/d/doc.pdf", QuickLookFacts(pageCount: 9)))
        state.apply(.quickLook(.step(2)))
        #expect(state.quickLook.page == 2)
        // The PDF went away underneath: the listing puts the cursor on the text file.
        state.apply(.reload(select: nil))
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "z.txt")]), complete: true))
        #expect(state.selected?.name == "z.txt")
        #expect(state.quickLook == .text(.init()) && state.quickLookContent == .text)
    }
}
