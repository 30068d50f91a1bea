import Testing
@testable import SystemKit

@Suite struct ProcessEnvironmentTests {
    @Test func theXDGFoldersDefaultUnderHome() {
        let environment = ProcessEnvironment(["HOME": "/home/ann"])
        #expect(environment.cacheHome == "/home/ann/.cache")
        #expect(environment.configHome == "/home/ann/.config")
        #expect(environment.stateHome == "/home/ann/.local/state")
        #expect(environment.dataHome == "/home/ann/.local/share")
        #expect(environment.dataDirectories == ["/usr/local/share", "/usr/share"])
        #expect(environment.runtimeDirectory == nil)
    }

    @Test func absoluteXDGVariablesWin() {
        let environment = ProcessEnvironment([
            "HOME": "/home/ann", "XDG_CACHE_HOME": "/c", "XDG_CONFIG_HOME": "/k", "XDG_STATE_HOME": "/s",
            "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/a:/b", "XDG_RUNTIME_DIR": "/run/user/1000",
        ])
        #expect(environment.cacheHome == "/c")
        #expect(environment.configHome == "/k")
        #expect(environment.stateHome == "/s")
        #expect(environment.dataHome == "/d")
        #expect(environment.dataDirectories == ["/a", "/b"])
        #expect(environment.runtimeDirectory == "/run/user/1000")
    }

    @Test func relativeOrEmptyValuesAreIgnoredAsTheSpecificationSays() {
        let environment = ProcessEnvironment(["HOME": "/home/ann/", "XDG_CACHE_HOME": "cache", "XDG_CONFIG_HOME": "", "XDG_DATA_DIRS": "rel:/usr/share"])
        #expect(environment.cacheHome == "/home/ann/.cache")
        #expect(environment.configHome == "/home/ann/.config")
        #expect(environment.dataDirectories == ["/usr/share"])
        #expect(environment["XDG_CONFIG_HOME"] == nil)
    }

    @Test func withoutHomeTheRootIsUsed() {
        #expect(ProcessEnvironment([:]).cacheHome == "/.cache")
    }

    @Test func theCurrentEnvironmentIsRead() {
        #expect(ProcessEnvironment.current["PATH"] == ProcessEnvironment.variable("PATH"))
        #expect(ProcessEnvironment.current.variables["PATH"] == ProcessEnvironment.variable("PATH"))
        #expect(ProcessEnvironment.current.home == (ProcessEnvironment.variable("HOME") ?? "/"))
        #expect(ProcessEnvironment.current["QLBROWSE_NO_SUCH_VARIABLE_SET"] == nil)
        // The process's own equals the same variables given as a dictionary.
        #expect(ProcessEnvironment.current == ProcessEnvironment(ProcessEnvironment.current.variables))
    }
}
