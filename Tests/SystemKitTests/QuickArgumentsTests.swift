import SystemKit
import Testing

@Suite struct QuickArgumentsTests {
    let options: [QuickArguments.Option] = [.flag("recursive", short: "r"), .flag("json"), .value("size", short: "s"), .value("output")]

    @Test func readsFlagsValuesAndOperandsInAnyOrder() throws {
        let given = try #require(QuickArguments(["a", "-r", "--size", "64", "b", "--output=/tmp/x y", "--json"], options: options))
        #expect(given.operands == ["a", "b"])
        #expect(given.has("recursive") && given.has("json"))
        #expect(given.value("size") == "64" && given.value("output") == "/tmp/x y")
    }

    @Test func everythingAfterTwoDashesIsAnOperand() throws {
        let given = try #require(QuickArguments(["--", "-r", "--size", "--"], options: options))
        #expect(given.operands == ["-r", "--size", "--"])
        #expect(given.flags.isEmpty && given.values.isEmpty)
    }

    @Test func anInlineValueMayStartWithADashButANextOneMayNot() {
        #expect(QuickArguments(["--size=-1"], options: options)?.value("size") == "-1")
        #expect(QuickArguments(["--size", "-1"], options: options) == nil)
        #expect(QuickArguments(["-s"], options: options) == nil)
    }

    @Test func givesUpOnWhatOnlyTheFullParserKnows() {
        for line in [["--help"], ["-h"], ["--bogus"], ["-rs", "4"], ["-"], ["--json", "--json"], ["-s", "1", "--size", "2"],
                     ["--json=yes"], ["-s=4"], ["--version"]] {
            #expect(QuickArguments(line, options: options) == nil, "\(line)")
        }
    }

    @Test func namesThatAreNotUTF8PassUnchanged() throws {
        let name = String(fileSystemBytes: [0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])
        let given = try #require(QuickArguments([name, "--output", name], options: options))
        #expect(given.operands == [name] && given.value("output") == name)
        #expect(given.operands[0].fileSystemBytes == [0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])
    }
}
