import FileSystemKit
import ThumbnailKit

/// Quick Look's edits (`e`): turn a picture or PDF pages, mirror a picture, trim a video or song
/// at the position bar, turn a video. The picture shows the result at once; nothing is written
/// until Enter asks how to save and the user answers.
extension BrowserState {
    /// The edit under way in Quick Look.
    public var quickEdit: QuickEdit? { overlay == .quickLook ? quickLook.edit : nil }

    /// What a key means while editing; nil leaves it to Quick Look (playing, seeking, paging).
    func editIntention(for key: KeyPress, _ command: Command?, _ edit: QuickEdit) -> BrowserAction? {
        let text = key.typedText
        switch edit.step {
        case .saving:
            return key == .escape ? .edit(.leave) : nil
        case .askingLossy:
            if key == .escape || text == "n" || text == "q" { return .edit(.leave) }
            return text == "y" ? .edit(.allowLossy) : nil
        case .askingHowToSave:
            if key == .escape || text == "n" || text == "q" { return .edit(.leave) }
            if key.isEnter || text == "c" { return .edit(.save(copy: true)) }
            if text == "r" { return .edit(.save(copy: false)) }
            return nil
        case .choosing:
            if let markup = edit.markup { return markupIntention(for: key, command, markup) }
            if key == .escape || command == .screen(.quickLook) || command == .screen(.quit) { return .edit(.leave) }
            if key.isEnter, quickLook.jump.isEmpty { return .edit(.askSave) }
            if edit.crop != nil { return cropIntention(for: key) }
            switch (text, edit.target) {
            case ("c", .picture): return .edit(.startCrop)
            case ("m", .picture), ("m", .document): return .edit(.startMarkup)
            case ("r", .picture), ("r", .document), ("r", .video), ("R", .picture), ("R", .video): return .edit(.turn(1, everyPage: false))
            case ("l", .picture), ("l", .document), ("l", .video), ("L", .picture), ("L", .video): return .edit(.turn(-1, everyPage: false))
            case ("R", .document): return .edit(.turn(1, everyPage: true))
            case ("L", .document): return .edit(.turn(-1, everyPage: true))
            case ("f", .picture): return .edit(.mirror)
            case ("i", .video), ("i", .song): return .edit(.trimPoint(start: true))
            case ("o", .video), ("o", .song): return .edit(.trimPoint(start: false))
            case ("x", .video), ("x", .song): return .edit(.clearTrim)
            default: return nil
            }
        }
    }

    mutating func reduce(_ action: QuickEditAction) -> [BrowserEffect] {
        switch action {
        case .start:
            guard let entry = selected else { return [] }
            if quickLook.motionLength != nil, liveMovie(of: entry) == nil {
                message = "this is a Motion Photo: turning the picture would lose the movie inside it, so it is not edited"
                return []
            }
            guard quickLook.custom == nil, let target = QuickEdit.target(for: entry, showing: quickLookContent) else {
                message = "Quick Look edits photos (JPEG, PNG, WebP, TIFF, HEIC, AVIF), PDFs, videos and songs; not this file"
                return []
            }
            if case .picture(var picture) = quickLook { (picture.zoom, picture.centerX, picture.centerY) = (1, 0.5, 0.5); quickLook = .picture(picture) }
            quickLook.edit = QuickEdit(target: target)
        case .turn(let quarterTurns, let everyPage):
            let page = quickLook.page
            quickLook.edit?.turn(by: quarterTurns, page: everyPage ? nil : page)
        case .mirror: quickLook.edit?.mirror()
        case .trimPoint(let start):
            let seconds = quickLook.seconds
            quickLook.edit?.setTrim(start: start, at: seconds)
            if start, quickLook.edit?.target == .video {
                message = "starts at \(FileEditResult.clock(quickLook.seconds)), or at the keyframe just before it: streams are copied, not encoded again"
            }
        case .clearTrim: quickLook.edit?.clearTrim()
        case .startCrop, .rectangle, .allowLossy: return reduceCrop(action)
        case .startMarkup, .markup: reduceMarkup(action)
        case .askSave:
            guard let edit = quickLook.edit else { return [] }
            if edit.trimStart != nil || edit.trimEnd != nil, edit.trimmed(duration: quickLook.duration) == nil {
                message = "the end must come after the start (x clears both)"
                return []
            }
            guard !edit.edits(duration: quickLook.duration).isEmpty else {
                message = edit.markup != nil ? "no marks yet: drag over the picture, or place a box with hjkl and Enter"
                    : edit.crop != nil ? "the rectangle is the whole picture: nothing to crop yet" : "nothing to save yet"
                return []
            }
            quickLook.edit?.moveTo(edit.croppedRect != nil && edit.cropLosesQuality ? .askingLossy : .askingHowToSave)
        case .save(let copy):
            guard let edit = quickLook.edit, edit.step == .askingHowToSave, let path = selectedPath else { return [] }
            quickLook.edit?.moveTo(.saving)
            if case .timeline(var timeline) = quickLook { timeline.playing = false; quickLook = .timeline(timeline) }
            return [.saveEdit(path: path, edits: edit.edits(duration: quickLook.duration), copy: copy)]
        case .leave:
            switch quickLook.edit?.step {
            case .saving?: return [.cancelEdit]
            case .askingHowToSave?, .askingLossy?: quickLook.edit?.moveTo(.choosing)
            case .choosing?:
                if let count = quickLook.edit?.markup?.marks.count, count > 0 { message = "left Markup: \(count == 1 ? "1 mark" : "\(count) marks") not written" }
                quickLook.edit = nil
            case nil: break
            }
        }
        return []
    }

    /// What the saving of an edit, or `U` after one, reported.
    mutating func reduceEditResult(_ result: BackgroundResult) -> [BrowserEffect] {
        switch result {
        case .editSaved(let outcome):
            message = outcome.summary
            if let original = outcome.trashed {
                lastReplaced = ReplacedOriginal(original: original, edited: outcome.output)
                lastTrashed = []
            }
            let name = Array(Self.lastComponent(outcome.output).utf8)
            // The file shown is another now: Quick Look starts over on it (a copy is shown too).
            if selectedPath == outcome.path { resetQuickLook() }
            return [.forgetPictures(path: outcome.path), .forgetPictures(path: outcome.output)] + reloadFolder(select: name, showsAll: true)
        case .editFailed(let path, let reason):
            // The edit stays, to try again or change; the original is as it was.
            if selectedPath == path, quickLook.edit?.step == .saving { quickLook.edit?.moveTo(.choosing) }
            message = "not saved: \(reason)"
        case .editRestored(let path):
            if selectedPath == path { resetQuickLook() }
            return [.forgetPictures(path: path)] + reloadFolder(select: nil)
        default: break
        }
        return []
    }
}
