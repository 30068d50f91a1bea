import Testing
@testable import BrowserUI

@Suite struct ThemeAndColorsTests {
    @Test func themeLinesParseColoursAndAttributes() {
        let (theme, problems) = Theme.parse("""
            # comment
            header = 231 on 24 bold
            selection = black on bright-yellow reverse
            folder = blue   # trailing comment
            nonsense = 1
            file = purple
            """)
        #expect(theme.style(.header) == Theme.Style(foreground: 231, background: 24, bold: true))
        #expect(theme.style(.selection).background == 11 && theme.style(.selection).reverse)
        #expect(theme.style(.folder).foreground == 4)
        #expect(problems.count == 2, "an unknown part and an unknown colour are reported: \(problems)")
    }

    @Test func theBuiltInThemeCoversEveryPart() {
        for part in Theme.Part.allCases { #expect(Theme.builtIn.styles[part] != nil, "\(part)") }
    }

    @Test func lsColorsStyleNamesByExtensionThenKind() {
        let colors = LSColors("di=01;34:ln=01;36:*.jpg=01;35:*.MP4=38;5;208:fi=0")
        #expect(colors.style(name: "a.JPG", isDirectory: false, isSymbolicLink: false) == Theme.Style(foreground: 5, bold: true))
        #expect(colors.style(name: "b.mp4", isDirectory: false, isSymbolicLink: false)?.foreground == 208)
        #expect(colors.style(name: "Photos", isDirectory: true, isSymbolicLink: false)?.foreground == 4)
        #expect(colors.style(name: "x", isDirectory: false, isSymbolicLink: true)?.foreground == 6)
        #expect(colors.style(name: "notes.txt", isDirectory: false, isSymbolicLink: false) == nil)
        #expect(LSColors(nil).isEmpty)
    }

    /// Issue 23: on 8 colours the nearest colour to mid grey is yellow, so the themes' grey sizes,
    /// dates and hints came out yellow (unreadable on white).
    @Test func greysNeverTakeAHueOnSmallPalettes() {
        for grey: Int32 in [242, 243, 244, 246, 102, 145] {
            #expect(ColorPalette.nearest(grey, available: 8, foreground: true) == -1, "grey \(grey) as text: the terminal's own text colour")
            #expect([0, 7].contains(ColorPalette.nearest(grey, available: 8)), "grey \(grey) as a background: black or white")
            #expect([0, 7, 8, 15, -1].contains(ColorPalette.nearest(grey, available: 16, foreground: true)))
        }
        #expect(ColorPalette.nearest(236, available: 8) == 0 && ColorPalette.nearest(253, available: 8) == 7)
        #expect(ColorPalette.nearest(232, available: 8, foreground: true) == 0, "near black stays black")
    }

    @Test func paletteColoursMapToTheNearestBasicColour() {
        #expect(ColorPalette.nearest(196, available: 8) == 1)  // bright red → red
        #expect(ColorPalette.nearest(21, available: 8) == 4)   // blue
        #expect(ColorPalette.nearest(231, available: 8) == 7)  // white
        #expect(ColorPalette.nearest(16, available: 8) == 0)   // black
        #expect(ColorPalette.nearest(200, available: 256) == 200)
        #expect(ColorPalette.nearest(-1, available: 8) == -1)
    }
}
