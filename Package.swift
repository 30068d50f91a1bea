// swift-tools-version: 6.0
// qlbrowse is free software under the GNU General Public License, version 3 or any later version
// (GPL-3.0-or-later, LICENSE): the worker links poppler, which is GPL.
import PackageDescription

#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
/// GLib's header folders (`pkg-config --cflags glib-2.0` on Debian), for C targets that call GLib
/// through looked-up addresses and must not link it.
let glibIncludes = ["-I/usr/include/glib-2.0", "-I/usr/lib/\(multiarch)/glib-2.0/include"]

/// qlbrowse: a terminal file browser with inline thumbnails, and the thumbnail engine behind it.
///
/// Two executables: `qlbrowse` (light: the browser and the command line, links no decoder) and
/// `qlbrowse-thumbnailer` (heavy: the worker process that links every decoder library).
let package = Package(
    name: "qlbrowse",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "qlbrowse", targets: ["qlbrowse"]),
        .executable(name: "qlbrowse-thumbnailer", targets: ["qlbrowse-thumbnailer"]),
        .library(name: "ThumbnailKit", targets: ["ThumbnailKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Tests only: hostile file names generated and shrunk (property-based tests).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // C libraries, one system-library target each, with a small shim header (two opened lazily, below).
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CMagic", pkgConfig: "libmagic", providers: [.apt(["libmagic-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // PNG, TIFF and WebP read without libvips: poppler and cairo load these three in any case.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CSystem"),
        .systemLibrary(name: "CGObject", pkgConfig: "gobject-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // libav and libvips bring ~150 of the worker's ~180 libraries and ~28 ms to every worker's
        // start, libqpdf, libraw and libarchive ~4 ms more; they are opened at first use instead
        // (CLazyLibrary), through C targets that define the functions qlbrowse calls (under the
        // libraries' own names, hidden; CVips: non-variadic wrappers).
        .target(name: "CLazyLibrary"),
        .target(name: "CAV", dependencies: ["CLazyLibrary"]),
        .target(name: "CRaw", dependencies: ["CLazyLibrary"]),
        .target(name: "CArchive", dependencies: ["CLazyLibrary"]),
        .target(name: "CQPDF", dependencies: ["CLazyLibrary"]),
        .target(name: "CVips", dependencies: ["CLazyLibrary", "CGObject"]),
        // GDBus for `qlbrowse dbus`, libgio and GLib opened only by that command. GLib's headers are
        // named here rather than through a pkg-config system library, which would link GLib (and
        // pcre2) into every short call (Debian's paths: scripts/install-deps installs libglib2.0-dev).
        .target(name: "CGio", dependencies: ["CLazyLibrary"], cSettings: [.unsafeFlags(glibIncludes)]),
        // chafa for block art and sixel, opened at the first such picture (with the GLib it brings).
        .target(name: "CChafa", dependencies: ["CLazyLibrary"],
                cSettings: [.unsafeFlags(glibIncludes + ["-I/usr/include/chafa", "-I/usr/lib/\(multiarch)/chafa/include"])]),
        // ncurses for the browser, opened when it starts: a short call loads neither ncursesw nor tinfo.
        .target(name: "CNcurses", dependencies: ["CLazyLibrary"]),

        // The system layer under everything: system calls (EINTR retried, one FileSystemError), the
        // "volume is gone" rule, threads for blocking calls (VolumeIO), the clock, the environment,
        // file names and types. The only Swift importer of CSystem besides the edges.
        .target(name: "SystemKit", dependencies: ["CSystem", "CGio"]),
        // The engine's vocabulary, the generator and the worker pool client. No decoder; Codecs/
        // (PNG, JPEG over zlib and libjpeg) is its C edge.
        .target(name: "ThumbnailKit", dependencies: ["SystemKit", "CZlib", "CJPEG"]),
        // Built-in providers: every decoder library lives here, used only by the worker.
        .target(name: "Providers", dependencies: ["ThumbnailKit", "SystemKit", "CVips", "CPoppler", "CCairo", "CAV", "CRaw", "CMagic", "CZlib", "CJPEG", "CArchive", "CSystem",
                                                 "CPNG", "CTIFF", "CWebP"]),
        // Quick edits, lossless: JPEG turns (libjpeg-turbo), other pictures (libvips), PDF page
        // rotation and annotations (qpdf), trims and video turns by stream copy (libav); Markup
        // drawn on pictures (cairo). Used only by the worker.
        .target(name: "Editors", dependencies: ["ThumbnailKit", "Providers", "SystemKit", "CTurboJPEG", "CQPDF", "CVips", "CAV", "CCairo"]),
        // The worker loop: framing over pipes, limits, cancellation.
        .target(name: "ThumbnailWorker", dependencies: ["ThumbnailKit", "Providers", "Editors", "SystemKit"]),

        // Folder listing off the UI thread, and the packed entry store it fills.
        .target(name: "FileSystemKit", dependencies: ["SystemKit"]),
        // The place layer: the `Place` protocol (list, stat, read, write, watch, file operations,
        // thumbnails for items) and `LocalPlace`, the local file system. Everything above it (the
        // browser's shell, the commands) reaches files only through a place.
        .target(name: "Places", dependencies: ["FileSystemKit", "ThumbnailKit", "SystemKit"]),
        // Pure browser state: entries, cursor, sort, filter, layout. No I/O, no terminal.
        .target(name: "BrowserCore", dependencies: ["FileSystemKit", "ThumbnailKit", "SystemKit"]),
        // Terminal capability probe and image encoding through chafa.
        .target(name: "TerminalGraphics", dependencies: ["ThumbnailKit", "SystemKit", "CChafa"]),
        // The ncurses screen, the event loop, and drawing of the state.
        .target(name: "BrowserUI", dependencies: ["BrowserCore", "Places", "FileSystemKit", "TerminalGraphics", "ThumbnailKit", "SystemKit", "CNcurses"]),

        .executableTarget(name: "qlbrowse-thumbnailer", dependencies: ["ThumbnailWorker", "SystemKit"], linkerSettings: [
            // Every batch starts a worker per core: a static Swift runtime spares each start the
            // relocation of the Swift libraries on top of the ~170 C libraries the decoders bring.
            .unsafeFlags(["-static-stdlib", "-Xlinker", "-l_FoundationCShims", "-Xlinker", "-l_FoundationCollections"]),
        ]),
        .executableTarget(name: "qlbrowse", dependencies: [
            "ThumbnailKit", "BrowserUI", "Places", "FileSystemKit", "TerminalGraphics", "SystemKit",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: [
            // The browser must start and stay as small as nnn: a static Swift runtime brings in only
            // what is used and spares the dynamic linker relocating all of libswiftCore (-5 MB RSS).
            .unsafeFlags(["-static-stdlib", "-Xlinker", "-l_FoundationCShims", "-Xlinker", "-l_FoundationCollections"]),
            // The code the browser and the short calls run, laid out together (scripts/hot-functions.ld).
            // Relative relocations packed (DT_RELR, glibc 2.36): 48,000 of them were 1.1 MB read at each start.
            // No symbol table for the dynamic loader (swiftc exports every symbol of an executable):
            // its 8,000 entries, 650 KB, were read at each start as the loader looked up the libraries'
            // symbols in the executable first.
            // The C++ runtime linked statically (scripts/static-libstdc++/libstdc++.so, a linker script).
            .unsafeFlags(["-L", "\(Context.packageDirectory)/scripts/static-libstdc++",
                          "-use-ld=lld", "-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/scripts/hot-functions.ld",
                          "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                          "-Xlinker", "-Map=\(Context.packageDirectory)/.build/qlbrowse-release.map"], .when(configuration: .release)),
        ]),

        .testTarget(name: "EditorsTests", dependencies: ["Editors", "ThumbnailKit"]),
        .testTarget(name: "SystemKitTests", dependencies: ["SystemKit"]),
        .testTarget(name: "ThumbnailKitTests", dependencies: ["ThumbnailKit", "SystemKit"]),
        .testTarget(name: "FileSystemKitTests", dependencies: ["FileSystemKit", "SystemKit", "ThumbnailKit"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "FileSystemKit", "ThumbnailKit", "SystemKit"]),
        .testTarget(name: "BrowserCoreTests", dependencies: ["BrowserCore", "FileSystemKit", "ThumbnailKit", "SystemKit"]),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TerminalGraphics", "ThumbnailKit"]),
        .testTarget(name: "BrowserUITests", dependencies: ["BrowserUI", "BrowserCore", "Places", "FileSystemKit", "SystemKit", "TerminalGraphics", "ThumbnailKit",
                                                           .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "ThumbnailKit", "SystemKit"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ThumbnailKit", "Places", "FileSystemKit", "SystemKit", .product(name: "PropertyBased", package: "swift-property-based")]),
    ],
    swiftLanguageModes: [.v6]
)

// Release builds put each function in a section of its own, so that the linker can lay out the
// code the browser and the short calls run in one stretch (`scripts/hot-functions.ld`): the
// kernel maps a program's code in 64 KB blocks around each page it runs, and the 3,000 functions
// a browser session runs, spread over 15 MB, made 8 MB of it resident (issue #27: RSS beside nnn's).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections",
                                                                         "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                                                                        .when(configuration: .release))]
}
