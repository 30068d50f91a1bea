import ThumbnailKit

/// Quick Look's crop (`e`, then `c` on a picture): the keys of the rectangle over the picture,
/// and starting it on the picture's size as shown.
extension BrowserState {
    /// While cropping: hjkl and the arrows move the rectangle, HJKL resize it (the right and
    /// bottom edges), `a` changes the ratio, `u` and Ctrl-R undo and redo, `x` takes the whole picture.
    func cropIntention(for key: KeyPress) -> BrowserAction? {
        let action: RectangleEditor.Action?
        switch key {
        case .special(.left): action = .move(.left)
        case .special(.right): action = .move(.right)
        case .special(.up): action = .move(.up)
        case .special(.down): action = .move(.down)
        case .character(18): action = .redo  // Ctrl-R
        default:
            switch key.typedText {
            case "h": action = .move(.left)
            case "l": action = .move(.right)
            case "k": action = .move(.up)
            case "j": action = .move(.down)
            case "H": action = .resize(.left)
            case "L": action = .resize(.right)
            case "K": action = .resize(.up)
            case "J": action = .resize(.down)
            case "a": action = .cycleRatio
            case "u": action = .undo
            case "x": action = .reset
            default: action = nil
            }
        }
        return action.map { .edit(.rectangle($0)) }
    }

    mutating func reduceCrop(_ action: QuickEditAction) -> [BrowserEffect] {
        switch action {
        case .startCrop:
            guard case .picture(let picture) = quickLook, let name = selected?.name else { return [] }
            guard let size = picture.size else {
                message = "the picture's size is not known yet: c again in a moment"
                return []
            }
            quickLook.edit?.startCrop(pictureSize: size, name: name)
            if quickLook.edit?.cropLosesQuality == true {
                message = "\(Self.suffixName(name)) cannot be cropped without encoding it again, which loses some quality: you will be asked before saving"
            }
        case .rectangle(let change): quickLook.edit?.editCrop(change, now: now)
        case .allowLossy:
            guard quickLook.edit?.step == .askingLossy else { return [] }
            quickLook.edit?.moveTo(.askingHowToSave)
        default: break
        }
        return []
    }

    static func suffixName(_ name: String) -> String { name.split(separator: ".").last.map { $0.uppercased() } ?? "this picture" }
}
