@testable import Editors
import Testing
import ThumbnailKit

/// The turn arithmetic behind lossless rotation: which transform of the stored pixels shows as
/// the turn asked for, whatever the EXIF orientation.
@Suite struct PictureTurnTests {
    @Test func fourQuarterTurnsAreNoTurnAndAMirrorTwiceIsNone() {
        #expect(PictureTurn(quarterTurns: 4, flip: false) == .identity)
        #expect(PictureTurn(quarterTurns: -1, flip: false) == PictureTurn(quarterTurns: 3, flip: false))
        #expect(PictureTurn.mirror.after(.mirror) == .identity)
        #expect(PictureTurn.quarter.after(PictureTurn.quarter.inverse) == .identity)
    }

    @Test func theEightTurnsAreDistinctAndSayWhetherTheySwapSides() {
        let all = (0..<4).flatMap { turns in [false, true].map { PictureTurn(quarterTurns: turns, flip: $0) } }
        #expect(Set(all.map { [$0.a, $0.b, $0.c, $0.d] }).count == 8)
        #expect(PictureTurn.quarter.swapsSides && PictureTurn.transpose.swapsSides && !PictureTurn.upsideDown.swapsSides)
        #expect(all.allSatisfy { PictureTurn(quarterTurns: $0.quarterTurnsAndFlip.quarterTurns, flip: $0.quarterTurnsAndFlip.flip) == $0 })
    }

    @Test func aRectangleFollowsThePictureThroughEveryTurnAndBack() {
        let rect = PixelRect(x: 10, y: 20, width: 30, height: 40)  // in a 100×60 picture
        #expect(PictureTurn.identity.map(rect, width: 100, height: 60) == rect)
        // Turned right, the picture is 60×100 and its left edge is the top: x = 60 - (20 + 40).
        #expect(PictureTurn.quarter.map(rect, width: 100, height: 60) == PixelRect(x: 0, y: 10, width: 40, height: 30))
        #expect(PictureTurn.mirror.map(rect, width: 100, height: 60) == PixelRect(x: 60, y: 20, width: 30, height: 40))
        #expect(PictureTurn(quarterTurns: 2, flip: false).map(rect, width: 100, height: 60) == PixelRect(x: 60, y: 0, width: 30, height: 40))
        for tag in 1...8 {
            let turn = PictureTurn.exifOrientation(tag)
            let turned = turn.map(rect, width: 100, height: 60)
            let (width, height) = turn.swapsSides ? (60, 100) : (100, 60)
            #expect(turn.inverse.map(turned, width: width, height: height) == rect, "orientation \(tag) and back")
        }
    }

    @Test func underARotatingOrientationTheStoredPixelsTurnTheSameWay() {
        // Rotations commute: orientation 6 (shown turned right) changes nothing.
        #expect(PictureTurn.stored(for: .quarter, orientation: 6) == .quarter)
        #expect(PictureTurn.stored(for: .quarter, orientation: 1) == .quarter)
    }

    @Test func underAMirroringOrientationTheStoredPixelsTurnTheOtherWay() {
        // Shown mirrored (2), a right turn on screen is a left turn of the stored pixels.
        let wanted = PictureTurn.quarter
        for tag in [2, 4, 5, 7] {
            let stored = PictureTurn.stored(for: wanted, orientation: tag)
            #expect(stored == PictureTurn(quarterTurns: 3, flip: false), "orientation \(tag)")
            let orientation = PictureTurn.exifOrientation(tag)
            #expect(orientation.after(stored) == wanted.after(orientation), "shown, it is the turn asked for (orientation \(tag))")
        }
    }
}

@Suite struct PacketSpanTests {
    @Test func aTrimStartsOnTheVideoKeyframeBeforeTheStartAndEndsAtTheEnd() {
        var span = PacketSpan(window: (start: 10.5, end: 20))
        #expect(span.decide(seconds: 10.0, isVideo: false, isKey: true, hasVideo: true) == .skip, "sound before the first picture")
        #expect(span.decide(seconds: 10.0, isVideo: true, isKey: true, hasVideo: true) == .keep(shift: 10))
        #expect(span.decide(seconds: 10.2, isVideo: false, isKey: true, hasVideo: true) == .keep(shift: 10))
        #expect(span.decide(seconds: 19.9, isVideo: true, isKey: false, hasVideo: true) == .keep(shift: 10))
        #expect(span.decide(seconds: 20.5, isVideo: true, isKey: false, hasVideo: true) == .skip)
        #expect(span.decide(seconds: 22.5, isVideo: true, isKey: false, hasVideo: true) == .stop)
        #expect(span.firstKept == 10 && span.lastKept == 19.9)
    }

    @Test func aSongStartsAtItsFirstPacketAtTheStart() {
        var span = PacketSpan(window: (start: 1, end: 2))
        #expect(span.decide(seconds: 0.97, isVideo: false, isKey: true, hasVideo: false) == .skip)
        #expect(span.decide(seconds: 1.02, isVideo: false, isKey: true, hasVideo: false) == .keep(shift: 1.02))
    }

    @Test func withoutAWindowEverythingIsKeptInPlace() {
        var span = PacketSpan(window: nil)
        #expect(span.decide(seconds: 0, isVideo: true, isKey: true, hasVideo: true) == .keep(shift: 0))
        #expect(span.decide(seconds: 99, isVideo: false, isKey: false, hasVideo: true) == .keep(shift: 0))
    }
}
