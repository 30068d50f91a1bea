import ArgumentParser
import FileSystemKit
import SystemKit

/// `qlbrowse volumes`: the volumes view (`V`) for scripts: what is mounted, the drives that are
/// not (and mounting one), and ejecting one.
struct VolumesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "volumes",
        abstract: "List volumes and drives not mounted; mount a drive; eject a volume.",
        discussion: """
        Drives not mounted are partitions of removable and USB drives and attached disk images \
        (loop devices). They are mounted through udisks2 when it runs on the system bus (polkit \
        decides), otherwise, as root, with mount(8) under /media/$USER/LABEL (FAT, exFAT and NTFS \
        owned by the user: $SUDO_USER under sudo). Eject refuses while a process holds a file or \
        folder there and names it.
        """,
        subcommands: [List.self, Mount.self, Eject.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every volume mounted, then every drive not mounted (the default).")
        @Flag(help: "One JSON object a line: state, kind, type, label, mount_point or device, size.") var json = false

        func run() throws {
            let mounted = VolumeMonitor.currentVolumes(), drives = DriveScanner.unmounted()
            var lines: [String] = []
            for volume in mounted {
                lines.append(json ? "{\"state\":\"mounted\",\"kind\":\(JSONString.quote(volume.kind.rawValue)),\"type\":\(JSONString.quote(volume.fsType)),"
                                    + "\"label\":\(JSONString.quote(volume.label)),\"mount_point\":\(JSONString.quote(volume.mountPoint)),\"source\":\(JSONString.quote(volume.source))}"
                                  : "mounted      \(volume.kind.rawValue.padded(9)) \(volume.fsType.padded(12)) \(TerminalText.escaped(volume.label).padded(16)) \(TerminalText.escaped(volume.mountPoint))")
            }
            for drive in drives {
                let type = drive.fsType.isEmpty ? "unknown" : drive.fsType
                lines.append(json ? "{\"state\":\"not mounted\",\"kind\":\"removable\",\"type\":\(JSONString.quote(type)),\"label\":\(JSONString.quote(drive.label)),"
                                    + "\"device\":\(JSONString.quote(drive.device)),\"size\":\(drive.size)}"
                                  : "not mounted  removable \(type.padded(12)) \(TerminalText.escaped(drive.name).padded(16)) \(drive.device)  \(ByteCount.text(Int(clamping: drive.size)))")
            }
            StandardStream.write(lines.map { $0 + "\n" }.joined(), to: 1)
        }
    }

    struct Mount: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mount", abstract: "Mount a drive that is not mounted and print where.")
        @Argument(help: "The drive: its label, device (/dev/sdb1 or sdb1) or UUID.") var drive: String

        func run() throws {
            guard let found = DriveScanner.find(drive) else {
                if let volume = Ejector.volume(named: drive) { throw RuntimeError("\(volume.label) is mounted already, at \(volume.mountPoint)") }
                throw RuntimeError("no drive that is not mounted is called \(TerminalText.escaped(drive)) (qlbrowse volumes lists them)")
            }
            switch Result(catching: { () throws(MountFailure) in try Mounters.preferred().mount(found, cancel: nil) }) {
            case .success(let point): StandardStream.write(point + "\n", to: 1)
            case .failure(let failure): throw RuntimeError(failure.message)
            }
        }
    }

    struct Eject: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "eject", abstract: "Flush and unmount a volume (a drive, or a server connected), refusing while files there are in use.")
        @Argument(help: "The volume: its label, mount point, device, or the server address it was connected with.") var volume: String

        func run() throws {
            guard let found = Ejector.volume(named: volume) else { throw RuntimeError("no mounted volume is called \(TerminalText.escaped(volume))") }
            switch Result(catching: { () throws(MountFailure) in try Ejector.eject(found, mounter: Mounters.preferred()) }) {
            case .success(let said): StandardStream.write(said + "\n", to: 1)
            case .failure(let failure): throw RuntimeError(failure.message)
            }
        }
    }
}

extension String {
    /// The text with spaces added to `width` characters, for columns.
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
