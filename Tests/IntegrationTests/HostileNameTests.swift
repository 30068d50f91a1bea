import Foundation
import Testing

/// Names are bytes, through the real binary: Tests/Support/hostile-names.py generates trees of
/// hostile names with Hypothesis (each beside its look-alike twin) and runs `files copy`, `move`,
/// `trash`, `thumbnail --json` and `find` on them, then D and y in the browser on `x\xFF.txt`
/// beside `x\u{FFFD}.txt`; every check compares the exact bytes on disk with a model.
@Suite(.serialized) struct HostileNameTests {
    @Test func everyCommandActsOnTheNamedBytesAndNeverOnATwin() throws {
        let result = TestEnvironment.runScenario("hostile-names.py", folder: "qlbrowse-hostile-names", arguments: ["--examples", "25"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 3, "\(result.stdout)")
    }
}
