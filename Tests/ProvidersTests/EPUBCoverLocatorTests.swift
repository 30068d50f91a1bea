import Testing
@testable import Providers

@Suite struct EPUBCoverLocatorTests {
    let container = """
        <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
        """

    @Test func containerNamesThePackage() {
        #expect(EPUBCoverLocator.packagePath(containerXML: container) == "OEBPS/content.opf")
    }

    @Test func epub3CoverImagePropertyWins() {
        let opf = """
            <package><manifest><item id="a" href="images/first.png" media-type="image/png"/>
            <item id="c" href="images/My%20Cover.jpg" media-type="image/jpeg" properties="cover-image"/></manifest></package>
            """
        #expect(EPUBCoverLocator.coverPath(packageXML: opf, packagePath: "OEBPS/content.opf") == "OEBPS/images/My Cover.jpg")
    }

    @Test func epub2MetaCoverIsFollowed() {
        let opf = """
            <opf:package><opf:metadata><meta name="cover" content="cover-id"/></opf:metadata>
            <opf:manifest><opf:item id="x" href="x.png" media-type="image/png"/><opf:item id="cover-id" href="../cover.jpeg" media-type="image/jpeg"/></opf:manifest></opf:package>
            """
        #expect(EPUBCoverLocator.coverPath(packageXML: opf, packagePath: "OEBPS/content.opf") == "cover.jpeg")
    }

    @Test func withoutAMarkedCoverTheFirstImageServes() {
        let opf = #"<package><manifest><item id="t" href="text.xhtml" media-type="application/xhtml+xml"/><item id='i' href='pic.gif' media-type='image/gif'/></manifest></package>"#
        #expect(EPUBCoverLocator.coverPath(packageXML: opf, packagePath: "content.opf") == "pic.gif")
    }

    @Test func noImagesNoCover() {
        #expect(EPUBCoverLocator.coverPath(packageXML: "<package/>", packagePath: "content.opf") == nil)
    }
}
