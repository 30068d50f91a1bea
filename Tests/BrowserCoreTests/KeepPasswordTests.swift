import Testing
@testable import BrowserCore
import FileSystemKit

/// After connecting with a typed password the browser asks whether the keyring keeps it (issue
/// 25): y keeps it, n, Enter and Esc do not, and a connection given up meanwhile is not asked about.
@Suite struct KeepPasswordTests {
    static let url = "smb://ann@nas/photos"

    func connectedWithAPassword() -> (BrowserState, [BrowserEffect]) {
        var state = BrowserState.browsing(["a"])
        state.apply(.volumes(.toggle))
        state.apply(.volumes(.connect))
        for character in Self.url { state.apply(.prompt(.input(String(character)))) }
        state.apply(.prompt(.accept))
        state.apply(.drives(.failed(MountFailure(.needsPassword, "nas wants a user name and password"), url: Self.url)))
        state.apply(.prompt(.input("tiger")))
        #expect(state.apply(.prompt(.accept)) == [.drives(.connect(url: Self.url, password: "tiger"))])
        let effects = state.apply(.drives(.connected(url: Self.url, folder: "/run/user/1/gvfs/smb-share:server=nas,share=photos,user=ann", canKeep: true)))
        return (state, effects)
    }

    @Test func yKeepsThePasswordInTheKeyring() {
        var (state, _) = connectedWithAPassword()
        #expect(state.mode == .awaitingKey(.keepPassword(url: Self.url)))
        #expect(state.message == "connected to \(Self.url); keep the password in the keyring? (y/N)")
        #expect(state.folder == "/run/user/1/gvfs/smb-share:server=nas,share=photos,user=ann")
        #expect(state.apply(.key(.character(UInt32(UInt8(ascii: "y"))), nil)) == [.drives(.keepPassword(url: Self.url, keep: true))])
        #expect(state.mode == .browsing)
    }

    @Test func anyOtherAnswerKeepsNothing() {
        for key in [KeyPress.character(UInt32(UInt8(ascii: "n"))), .escape, .character(13), .character(UInt32(UInt8(ascii: "x")))] {
            var (state, _) = connectedWithAPassword()
            #expect(state.apply(.key(key, nil)) == [.drives(.keepPassword(url: Self.url, keep: false))], "\(key)")
            #expect(state.mode == .browsing && state.message == "the password was not kept", "\(key)")
        }
    }

    @Test func noQuestionWithoutATypedPasswordOrAfterEsc() {
        var state = BrowserState.browsing(["a"])
        state.apply(.volumes(.toggle))
        state.apply(.volumes(.connect))
        for character in "sftp://host/x" { state.apply(.prompt(.input(String(character)))) }
        state.apply(.prompt(.accept))
        state.apply(.drives(.connected(url: "sftp://host/x", folder: "/srv/x")))
        #expect(state.mode == .browsing && state.message == "connected to sftp://host/x")
        state.apply(.volumes(.toggle))
        state.apply(.volumes(.connect))
        state.apply(.prompt(.accept))
        state.apply(.key(.escape, nil))
        // Given up with Esc: the password the shell holds is dropped, nothing is asked.
        #expect(state.apply(.drives(.connected(url: "sftp://host/x", folder: "/srv/x", canKeep: true))) == [.drives(.keepPassword(url: "sftp://host/x", keep: false))])
        #expect(state.mode == .browsing)
    }
}
