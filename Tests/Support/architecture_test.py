#!/usr/bin/python3
"""Unit tests of scripts/architecture.py's reading of Package.swift and Swift sources.
Run: python3 Tests/Support/architecture_test.py (ArchitectureTests runs it in `swift test`)."""
import os, sys, tempfile, unittest

sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../scripts"))
import architecture as arch  # noqa: E402

PACKAGE = '''// swift-tools-version: 6.0
import PackageDescription

/* A block comment with "quotes", a bracket ( and /* a nested one */ still a comment. */
let package = Package(
    name: "demo",
    products: [.executable(name: "tool", targets: ["tool"])],  // not a target: `targets: ["tool"]`
    dependencies: [.package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")],
    targets: [
        .systemLibrary(name: "CFoo", pkgConfig: "foo"),
        // .target(name: "Commented", dependencies: ["Nothing"]),
        .target(name: "Core", dependencies: ["CFoo"]),
        .target(
            name: "UI",
            dependencies: [
                "Core",          // a comment, with a comma
                .target(name: "CFoo", condition: .when(platforms: [.linux])),
                .byName(name: "Extra"),
            ]
        ),
        .executableTarget(name: "tool", dependencies: [
            "UI",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/tool-main", linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
        .testTarget(name: "ExtraTests", dependencies: ["Core"], path: "Tests/Elsewhere/"),
    ]
)
'''


class PackageTests(unittest.TestCase):
    def setUp(self):
        self.targets = {t.name: t for t in arch.parse_package(PACKAGE)}

    def test_targets_and_kinds(self):
        self.assertEqual(list(self.targets), ["CFoo", "Core", "UI", "tool", "CoreTests", "ExtraTests"])
        self.assertEqual(self.targets["CFoo"].kind, "systemLibrary")
        self.assertEqual(self.targets["tool"].kind, "executableTarget")
        self.assertEqual(self.targets["CoreTests"].kind, "testTarget")

    def test_dependencies_across_lines_comments_and_calls(self):
        self.assertEqual(self.targets["UI"].dependencies, ["Core", "CFoo", "Extra"])
        self.assertEqual(self.targets["tool"].dependencies, ["UI", "ArgumentParser"])
        self.assertEqual(self.targets["tool"].products, {"ArgumentParser": "swift-argument-parser"})
        self.assertEqual(self.targets["CFoo"].dependencies, [])

    def test_paths(self):
        self.assertEqual(self.targets["Core"].path, "Sources/Core")
        self.assertEqual(self.targets["tool"].path, "Sources/tool-main")
        self.assertEqual(self.targets["CoreTests"].path, "Tests/CoreTests")
        self.assertEqual(self.targets["ExtraTests"].path, "Tests/Elsewhere")

    def test_diagram(self):
        with tempfile.TemporaryDirectory() as root:
            self.assertEqual(arch.diagram(root, list(self.targets.values())),
                             "tool               executable\n"
                             "├─ UI              C: CFoo\n"
                             "│  ├─ Core         C: CFoo\n"
                             "│  └─ Extra        external\n"
                             "└─ ArgumentParser  product of swift-argument-parser\n")

    def test_a_target_of_c_sources_is_a_c_module(self):
        # CAV and CVips: C targets that open their library at first use are C edges like CFoo.
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "Sources/Core"))
            with open(os.path.join(root, "Sources/Core/lazy.c"), "w") as f:
                f.write("int lazy;\n")
            self.assertEqual(arch.c_module_names(root, list(self.targets.values())), {"CFoo", "Core"})
            self.assertIn("├─ UI              C: Core, CFoo\n", arch.diagram(root, list(self.targets.values())))


class ImportTests(unittest.TestCase):
    def test_import_forms(self):
        source = ('import Foundation\n@testable import Core\ninternal import CFoo\n'
                  '@preconcurrency import UI.Sub\nimport struct Extra.Thing\n  import Indented\n')
        self.assertEqual(arch.imports(source),
                         [(1, "Foundation"), (2, "Core"), (3, "CFoo"), (4, "UI"), (5, "Extra"), (6, "Indented")])

    def test_no_imports_from_comments_or_strings(self):
        source = ('// import A\n/* import B\n   /* nested */\nimport C */\n'
                  'let s = """\nimport D\n\\(f("x")) """\nlet t = "\\(g(")"))" // import E\n'
                  'let r = #"\\"#\nimport F\n')
        self.assertEqual(arch.imports(source), [(10, "F")])

    def test_c_places(self):
        self.assertTrue(arch.c_import_allowed("Sources/Providers/Sub/X.swift"))
        self.assertTrue(arch.c_import_allowed("Sources/BrowserUI/CursesScreen.swift"))
        self.assertFalse(arch.c_import_allowed("Sources/BrowserUI/Views/CursesScreen.swift"))
        self.assertFalse(arch.c_import_allowed("Sources/BrowserUI/KeyMap.swift"))


class CheckTests(unittest.TestCase):
    def test_checks_on_a_small_tree(self):
        with tempfile.TemporaryDirectory() as root:
            files = {
                "Package.swift": PACKAGE,
                "Sources/Core/Core.swift": "import CFoo\n",
                "Sources/UI/View.swift": "import Core\nimport Glibc\nimport Elsewhere\n" + "x\n" * 300,
                "Sources/tool-main/main.swift": "import UI\nimport ArgumentParser\n",
                "Tests/CoreTests/T.swift": "@testable import Core\nimport Testing\n",
                "docs/A.md": "# A\n\n<!-- modules:begin -->\nold\n<!-- modules:end -->\nafter\n",
            }
            for path, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), "w") as f:
                    f.write(text)
            targets = arch.parse_package(PACKAGE)
            self.assertEqual(arch.check_file_lengths(root, 300), ["Sources/UI/View.swift:301: 303 lines, more than 300"])
            c_problems = arch.check_c_imports(root, targets)
            self.assertEqual([p.split(": ")[0] for p in c_problems], ["Sources/Core/Core.swift:1"])
            undeclared = arch.check_declared_imports(root, targets)
            self.assertEqual(len(undeclared), 1)
            self.assertTrue(undeclared[0].startswith("Sources/UI/View.swift:3: imports Elsewhere,"))
            self.assertTrue(arch.check_doc(root, "docs/A.md", targets)[0].startswith("docs/A.md:3: "))
            arch.write_doc(root, "docs/A.md", targets)
            self.assertEqual(arch.check_doc(root, "docs/A.md", targets), [])
            self.assertTrue(arch.read(root, "docs/A.md").endswith("<!-- modules:end -->\nafter\n"))


class VocabularyTests(unittest.TestCase):
    """Issue #24: no enum over MAX_ENUM_CASES cases, no type over MAX_OPTIONAL_PROPERTIES optional
    stored properties, but for the allow-list."""

    SOURCE = '''/// A bag: `case` and `var x: Int?` in comments and "case a, b" in strings do not count.
public struct Bag: Sendable {
    public var a: Int?
    package private(set) var b: [String]?
    @Published var c: Optional<Double> = nil
    weak var d: AnyObject?
    let e: String? = "case x, y, z"
    var f: Int?
    var g: Int!
    var h: (Int, Int)?
    lazy var i: Int? = nil
    var j: Int? { didSet { print("k") } }
    var computed: Int? { a }
    static var shared: Bag?
    var plain: Int = 0
    func work() -> Int? {
        var local: Int? = nil
        switch local { case .some(let v): local = v; case .none: break }
        return local
    }
    struct Inner { var x: Int?; var y: Int? }
}

indirect enum Tree: Codable {
    case leaf, node(Tree, Tree), labelled(name: String, children: [Tree])
    case  // a case per line too
        empty
    case pair(Dictionary<String, Int>, Int)
    static let root = Tree.leaf
    enum Nested { case a, b, c }
    var isLeaf: Bool { if case .leaf = self { true } else { false } }
}
'''

    def test_counts_cases_and_optional_stored_properties(self):
        found = {name: (kind, cases, optionals) for _, kind, name, cases, optionals in arch.type_vocabularies(self.SOURCE)}
        self.assertEqual(found["Bag"], ("struct", 0, 10))  # a b c d e f g h i j; not computed, static, local
        self.assertEqual(found["Inner"], ("struct", 0, 2))
        self.assertEqual(found["Tree"], ("enum", 5, 0))  # leaf node labelled empty pair; not Nested's, not `if case`
        self.assertEqual(found["Nested"], ("enum", 3, 0))

    def _tree(self, root, files):
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)

    def test_limits_and_the_allow_list(self):
        many_cases = "enum Wide {\n" + "".join(f"    case c{k}\n" for k in range(41)) + "}\n"
        optionals = "struct Loose {\n" + "".join(f"    var v{k}: Int?\n" for k in range(11)) + "}\n"
        with tempfile.TemporaryDirectory() as root:
            self._tree(root, {"Sources/A/Wide.swift": many_cases, "Sources/A/Loose.swift": optionals,
                              "Sources/A/Fine.swift": many_cases.replace("Wide", "Fine").replace("    case c40\n", "")
                              + optionals.replace("Loose", "Tight").replace("    var v10: Int?\n", "")})
            problems = arch.check_vocabularies(root, allowed=set())
            self.assertEqual([p.split(": ")[0] for p in problems], ["Sources/A/Loose.swift:1", "Sources/A/Wide.swift:1"])
            self.assertIn("enum Wide has 41 cases, more than 40", problems[1])
            self.assertIn("struct Loose has 11 optional properties, more than 10", problems[0])
            self.assertEqual(arch.check_vocabularies(root, allowed={"Wide", "Loose"}), [])

    def test_the_allow_list_names_only_todays_offenders(self):
        # Every entry is over a limit in this tree (an entry for a type since split must go).
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
        self.assertEqual(arch.check_vocabularies(root), [])
        over = {name for path in arch.swift_files(root, "Sources")
                for _, _, name, cases, optionals in arch.type_vocabularies(arch.read(root, path))
                if cases > arch.MAX_ENUM_CASES or optionals > arch.MAX_OPTIONAL_PROPERTIES}
        self.assertEqual(over, set(arch.VOCABULARY_ALLOWED))


class PlaceLayerTests(unittest.TestCase):
    VIEW = """import Core
import BrowserUI
// stat(path, &info) in a comment, and "opendir(x)" in a string, are no calls
func open(_ url: String) {}
let a = place.rename(from, to: to)
let b = open(path, O_RDONLY)
let c = FileManager.default
let d = stat(path, &info)
"""

    def test_calls_above_the_places_and_the_browser_import(self):
        with tempfile.TemporaryDirectory() as root:
            for path, text in {"Package.swift": PACKAGE, "Sources/UI/View.swift": self.VIEW,
                               "Sources/Core/Core.swift": "let x = opendir(folder)\nimport BrowserUI\n",
                               "Sources/tool-main/main.swift": "import BrowserUI\n"}.items():
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), "w") as f:
                    f.write(text)
            targets = arch.parse_package(PACKAGE)
            problems = arch.check_place_layer(root, targets, below={"Sources/Core/": "the layer"}, allowed_calls={},
                                              ui_importers={"Sources/tool-main/main.swift"})
            self.assertEqual([p.split(": ")[0] + " " + p.split(": ")[1].split(" ")[0] for p in problems],
                             ["Sources/Core/Core.swift:1 imports", "Sources/UI/View.swift:1 imports",
                              "Sources/UI/View.swift:6 open", "Sources/UI/View.swift:7 FileManager", "Sources/UI/View.swift:8 stat"])
            allowed = {"Sources/UI/View.swift": ({"open", "FileManager"}, "why")}
            problems = arch.check_place_layer(root, targets, below={"Sources/Core/": "the layer"}, allowed_calls=allowed,
                                              ui_importers={"Sources/UI/View.swift", "Sources/Core/Core.swift", "Sources/tool-main/main.swift"})
            self.assertEqual([p.split(": ")[0] for p in problems], ["Sources/UI/View.swift:8"])

    def test_the_allow_list_names_only_calls_still_made(self):
        # Each allowed call is still made in its file, and each entry gives a reason.
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
        for path, (calls, reason) in arch.FILE_CALLS_ALLOWED.items():
            made = {m.group(1) or m.group(2) for m in arch.FILE_CALL.finditer(arch.mask(arch.read(root, path)))}
            self.assertEqual(made & calls, calls, f"{path}: allowed but no longer made: {calls - made}")
            self.assertTrue(reason)


if __name__ == "__main__":
    unittest.main()
