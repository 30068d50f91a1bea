import BrowserCore
import SystemKit
import ThumbnailKit

/// The overlays drawn over the browser: help, volumes, jobs, and the questions (thumbnail where,
/// delete for good, a name taken).
struct OverlayView {
    let context: ViewContext

    func draw(_ overlay: Overlay, state: BrowserState) {
        let layout = state.layout, box = BoxView(context: context)
        switch overlay {
        case .quickLook: return
        case .help: HelpView(context: context).draw(layout, page: state.helpPage)
        case .volumes:
            let (lines, selected) = Self.volumeLines(state)
            box.draw(title: " Volumes   Enter opens or mounts · E ejects · C connects to a server · Esc closes", lines: lines, selected: selected, layout: layout)
        case .jobs:
            let lines = state.jobs.isEmpty ? ["No jobs yet: T on a folder thumbnails it in the background."] : state.jobs.map(JobText.line)
            box.draw(title: " Jobs   c cancels · space pauses a copy · Enter resumes stopped thumbnailing · Esc closes", lines: lines,
                     selected: state.jobs.isEmpty ? nil : state.jobCursor, layout: layout, minimumWidth: 70)
        case .bookmarks:
            let lines = state.bookmarks.isEmpty ? ["No bookmarks yet: b then a key keeps the folder you are in."] : state.bookmarks.map { bookmark in
                let place = TerminalText.escaped(bookmark.folder) + (bookmark.file.map { "  (" + TerminalText.escaped($0) + ")" } ?? "")
                let problem = state.bookmarkProblems[bookmark.folder]
                let status = problem == nil ? "  …" : problem!.isEmpty ? "" : "  unavailable: " + TerminalText.escaped(problem!)
                return "\(bookmark.key)  " + place + status
            }
            box.draw(title: " Bookmarks   Enter goes · d deletes · r gives another key · Esc closes", lines: lines,
                     selected: state.bookmarks.isEmpty ? nil : state.bookmarkCursor, layout: layout, minimumWidth: 60)
        case .bulkRenamePlan(_, let plan):
            if plan.problems.isEmpty {
                let width = min(40, plan.changes.map(\.from.count).max() ?? 10)
                let lines = plan.changes.prefix(max(1, layout.rows - 8)).map { DisplayFormat.pad(TerminalText.escaped($0.from), to: width) + "  →  " + TerminalText.escaped($0.to) }
                    + (plan.changes.count > layout.rows - 8 ? ["… and \(plan.changes.count - (layout.rows - 8)) more"] : [])
                box.draw(title: " Rename \(plan.changes.count)?   Enter or y renames all (z undoes) · Esc renames none", lines: lines, selected: nil, layout: layout)
            } else {
                box.draw(title: " Nothing renamed: the list has problems   Esc closes", lines: plan.problems.map(TerminalText.escaped), selected: nil, layout: layout)
            }
        case .confirmBatch(let folder):
            box.draw(title: " Thumbnail this folder?", lines: [
                TerminalText.escaped(folder), "",
                "Enter   into your thumbnail cache",
                "s       also into .sh_thumbnails beside the files (other machines see them)",
                "Esc     cancel",
            ], selected: nil, layout: layout)
        case .confirmDelete(let paths):
            let names = paths.prefix(12).map { "  " + TerminalText.escaped($0) } + (paths.count > 12 ? ["  … and \(paths.count - 12) more"] : [])
            box.draw(title: " Delete for good? This cannot be undone (d moves to the trash instead)",
                     lines: names + ["", "y or Enter deletes · n or Esc keeps them"], selected: nil, layout: layout)
        case .conflict(_, let conflict):
            box.draw(title: " This name is taken", lines: [
                TerminalText.escaped(conflict.destination) + (conflict.destinationIsFolder ? " (a folder)" : ""),
                "from " + TerminalText.escaped(conflict.source), "",
                "o  overwrite" + (conflict.destinationIsFolder ? " (merge the folders)" : ""),
                "s  skip", "k  keep both (a numbered name)", "O S K  the same for all the rest",
            ], selected: nil, layout: layout)
        }
    }

    /// A line per volume (kind, label, mount point, type, flags, space, health), then what the
    /// selected one allows; and which line is selected.
    static func volumeLines(_ state: BrowserState) -> ([String], Int?) {
        var lines = state.volumes.map { status -> String in
            let volume = status.volume
            let size = status.totalBytes.map { "\(DisplayFormat.bytes(Int64(clamping: status.freeBytes ?? 0))) free of \(DisplayFormat.bytes(Int64(clamping: $0)))" } ?? ""
            return DisplayFormat.pad(volume.kind.rawValue, to: 10) + DisplayFormat.pad(TerminalText.escaped(volume.label), to: 18) + " "
                + DisplayFormat.pad(TerminalText.escaped(volume.mountPoint), to: 30) + " " + DisplayFormat.pad(volume.fsType, to: 13)
                + (volume.isReadOnly ? " ro" : "") + " " + size + (status.isResponding ? "" : "  not responding")
        }
        lines += state.volumeState.drives.map { drive in
            DisplayFormat.pad("removable", to: 10) + DisplayFormat.pad(TerminalText.escaped(drive.name), to: 18) + " "
                + DisplayFormat.pad("not mounted (" + drive.device + ")", to: 30) + " " + DisplayFormat.pad(drive.fsType.isEmpty ? "unknown" : drive.fsType, to: 13)
                + " " + DisplayFormat.bytes(Int64(clamping: drive.size))
        }
        if let drive = state.selectedDrive {
            return (lines + ["", "\(TerminalText.escaped(drive.name)): not mounted · Enter mounts it"], state.volumeCursor)
        }
        guard state.volumes.indices.contains(state.volumeCursor) else {
            return (lines.isEmpty ? ["(no volumes found in /proc/self/mountinfo)"] : lines, nil)
        }
        let selected = state.volumes[state.volumeCursor].volume
        lines += ["", "\(TerminalText.escaped(selected.label)): " + (state.capabilities[selected.mountPoint]?.summary ?? "…")]
        return (lines, state.volumeCursor)
    }
}
