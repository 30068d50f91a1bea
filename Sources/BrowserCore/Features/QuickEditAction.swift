/// Quick Look's edits (`e`): what the user asks while editing; the results come back as
/// `BackgroundResult.editSaved`, `.editFailed` and `.editRestored`.
public enum QuickEditAction: Sendable, Equatable {
    /// `e` starts editing the file shown.
    case start
    /// Turn by quarter turns clockwise: the page shown, or every page of a PDF.
    case turn(Int, everyPage: Bool)
    /// Mirror the picture left to right.
    case mirror
    /// A trimmed video or song starts (true) or ends here.
    case trimPoint(start: Bool)
    case clearTrim
    /// `c` on a picture: a crop rectangle over it.
    case startCrop
    /// A key or the mouse on the crop's rectangle.
    case rectangle(RectangleEditor.Action)
    /// `m` on a picture or a PDF page: Markup.
    case startMarkup
    /// A key or the mouse in Markup.
    case markup(MarkupEditor.Action)
    /// Yes to a crop of a HEIC or AVIF picture written again with loss.
    case allowLossy
    /// Enter: ask how to save (replace or copy).
    case askSave
    /// Save: a copy beside the original, or in its place with the original in the Trash.
    case save(copy: Bool)
    /// Esc: back one step (saving: cancel it; asking: back to editing; editing: leave, nothing written).
    case leave
}
