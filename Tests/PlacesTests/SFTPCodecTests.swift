@testable import Places
import SystemKit
import Testing

/// SFTP version 3's packets (draft-ietf-secsh-filexfer-02) to bytes and back: requests as a
/// server reads them, answers as OpenSSH's sftp-server writes them, names kept as their bytes,
/// and malformed answers refused without a trap.
struct SFTPCodecTests {
    /// An answer's body as a server writes it (after the length).
    private func body(_ type: UInt8, id: UInt32, _ fields: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [type]
        SFTPCodec.put(id, into: &out)
        return out + fields.joined()
    }

    private func uint32(_ value: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        SFTPCodec.put(value, into: &out)
        return out
    }

    private func string(_ bytes: [UInt8]) -> [UInt8] { uint32(UInt32(bytes.count)) + bytes }

    @Test func theHelloAndARangedReadAreTheDraftsBytes() {
        #expect(SFTPCodec.hello() == [0, 0, 0, 5, 1, 0, 0, 0, 3])
        let read = SFTPCodec.encode(.read(handle: [0xAA, 0xBB], offset: 0x1_0000_0002, length: 65536), id: 7)
        // length 23: type, id, handle (4 + 2), offset (8), length (4)
        #expect(read == [0, 0, 0, 23, 5, 0, 0, 0, 7, 0, 0, 0, 2, 0xAA, 0xBB, 0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 0, 0])
        #expect(SFTPCodec.length(Array(read.prefix(4))) == read.count - 4)
    }

    @Test func aPathThatIsNotUTF8IsSentAsItsBytes() {
        let name = String(fileSystemBytes: Array("caf".utf8) + [0xE9])
        let packet = SFTPCodec.encode(.openDirectory(path: name.fileSystemBytes), id: 1)
        #expect(Array(packet.suffix(4)) == Array("caf".utf8) + [0xE9])
        let rename = SFTPCodec.encode(.rename(from: [0x61], to: [0x62, 0xFF]), id: 2)
        #expect(Array(rename.suffix(11)) == [0, 0, 0, 1, 0x61, 0, 0, 0, 2, 0x62, 0xFF])
    }

    /// A piece of a copy: WRITE at a 64-bit offset with its data; the flush is OpenSSH's
    /// `fsync@openssh.com`, an SSH_FXP_EXTENDED (200) with the extension's name and the handle.
    @Test func aWriteAndTheFsyncExtensionAreTheDraftsBytes() {
        let write = SFTPCodec.encode(.write(handle: [0xAA], offset: 0x1_0000_0003, data: [1, 2, 3]), id: 9)
        #expect(write == [0, 0, 0, 25, 6, 0, 0, 0, 9] + string([0xAA]) + [0, 0, 0, 1, 0, 0, 0, 3] + string([1, 2, 3]))
        let fsync = SFTPCodec.encode(.fsync(handle: [0xAA, 0xBB]), id: 4)
        #expect(fsync == uint32(UInt32(fsync.count - 4)) + [200, 0, 0, 0, 4] + string(Array("fsync@openssh.com".utf8)) + string([0xAA, 0xBB]))
    }

    /// OpenSSH's `copy-data`: the extension's name, the read handle, two 64-bit numbers (offset,
    /// length), the write handle and its 64-bit offset.
    @Test func theCopyDataExtensionIsOpenSSHsBytes() {
        let copy = SFTPCodec.encode(.copyData(from: [0xAA], offset: 0x1_0000_0002, length: 0, to: [0xBB, 0xCC], at: 5), id: 7)
        #expect(copy == uint32(UInt32(copy.count - 4)) + [200, 0, 0, 0, 7] + string(Array("copy-data".utf8)) + string([0xAA])
            + [0, 0, 0, 1, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 0] + string([0xBB, 0xCC]) + [0, 0, 0, 0, 0, 0, 0, 5])
    }

    /// A copy's file is made by an OPEN whose ATTRS say permissions 0600 (flag 0x4): the server
    /// makes it private, never 0666 less its umask; SETSTAT gives it its mode at the end.
    @Test func aCopysOpenSaysPrivateAndSetstatGivesTheMode() {
        let create = SFTPCodec.encode(.create(path: [0x61, 0xFF], flags: 0x2A, permissions: 0o600), id: 3)
        #expect(create == uint32(UInt32(create.count - 4)) + [3, 0, 0, 0, 3] + string([0x61, 0xFF]) + uint32(0x2A) + uint32(0x4) + uint32(0o600))
        let setstat = SFTPCodec.encode(.setPermissions(path: [0x62], permissions: 0o750), id: 5)
        #expect(setstat == uint32(UInt32(setstat.count - 4)) + [9, 0, 0, 0, 5] + string([0x62]) + uint32(0x4) + uint32(0o750))
    }

    @Test func aListingKeepsEachNamesBytesAndAttributes() throws {
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
        let utf8: [UInt8] = Array("café.txt".utf8)
        // size, uid/gid, permissions, times; then one with only permissions and an extension pair.
        let first = uint32(0xF) + [0, 0, 0, 0, 0, 0, 0, 7] + uint32(1000) + uint32(1000) + uint32(0o100644) + uint32(1) + uint32(1_700_000_000)
        let second = uint32(0x8000_0004) + uint32(0o040755) + uint32(1) + string(Array("a@b".utf8)) + string([1])
        let answer = body(104, id: 9, [uint32(2), string(latin1), string(Array("-rw-r--r-- …".utf8)), first,
                                       string(utf8), string([]), second])
        guard case .names(let id, let names) = try SFTPCodec.decode(answer) else { Issue.record("not a name list"); return }
        #expect(id == 9 && names.count == 2)
        #expect(names[0].name == latin1 && names[1].name == utf8, "twins that look alike stay two names")
        #expect(names[0].attributes == SFTPAttributes(size: 7, permissions: 0o100644, modified: 1_700_000_000))
        #expect(names[0].attributes.isRegularFile && names[1].attributes.isDirectory && names[1].attributes.size == nil)
        #expect(String(fileSystemBytes: names[0].name) != String(fileSystemBytes: names[1].name))
    }

    @Test func statusHandleDataAndVersionAreRead() throws {
        #expect(try SFTPCodec.decode(body(101, id: 3, [uint32(2), string(Array("No such file".utf8)), string([])]))
                == .status(id: 3, code: SFTPReply.noSuchFile, message: "No such file"))
        #expect(try SFTPCodec.decode(body(101, id: 4, [uint32(1)])) == .status(id: 4, code: SFTPReply.endOfFile, message: ""))
        #expect(try SFTPCodec.decode(body(102, id: 5, [string([1, 2, 3, 4])])) == .handle(id: 5, handle: [1, 2, 3, 4]))
        #expect(try SFTPCodec.decode(body(103, id: 6, [string([9, 8])])) == .data(id: 6, bytes: [9, 8]))
        #expect(try SFTPCodec.decode([2] + uint32(3) + string(Array("posix-rename@openssh.com".utf8)) + string(Array("1".utf8))) == .version(3))
        #expect(try SFTPCodec.decode(body(105, id: 7, [uint32(1), [0, 0, 0, 0, 0, 0, 1, 0]])) == .attributes(id: 7, SFTPAttributes(size: 256)))
    }

    @Test func malformedAnswersAreRefusedNotTrusted() {
        // A string longer than the answer, a list claiming more names than bytes, an unknown type, nothing.
        #expect(throws: SFTPCodec.Malformed.self) { try SFTPCodec.decode(body(103, id: 1, [uint32(1000), [1, 2]])) }
        #expect(throws: SFTPCodec.Malformed.self) { try SFTPCodec.decode(body(104, id: 1, [uint32(0xFFFF_FFFF)])) }
        #expect(throws: SFTPCodec.Malformed.self) { try SFTPCodec.decode(body(200, id: 1, [])) }
        #expect(throws: SFTPCodec.Malformed.self) { try SFTPCodec.decode([]) }
        #expect(throws: SFTPCodec.Malformed.self) { try SFTPCodec.decode(body(105, id: 1, [uint32(0x8000_0000), uint32(0x7FFF_FFFF)])) }
    }

    @Test func theSFTPCommandLineIsTheUsersSSHWithTheSubsystem() {
        let address = RemoteAddress.parse("ssh://me@nas:2222/photos")!
        #expect(RemoteCommand().sftpArguments(for: address) == ["ssh", "-p", "2222", "-s", "me@nas", "sftp"])
        #expect(RemoteCommand().sftpArguments(for: address, reconnecting: true) == ["ssh", "-o", "BatchMode=yes", "-p", "2222", "-s", "me@nas", "sftp"])
        let custom = RemoteCommand(sshCommand: "ssh -F cfg").sftpArguments(for: address)
        #expect(custom == ["/bin/sh", "-c", "ssh -F cfg \"$@\"", "ssh -F cfg", "-p", "2222", "-s", "me@nas", "sftp"])
    }
}
