import Testing
@testable import ThumbnailKit

@Suite struct NaturalOrderTests {
    @Test func numbersCompareByValue() {
        #expect(["page10.jpg", "page2.jpg", "page1.jpg"].sorted(by: NaturalOrder.less) == ["page1.jpg", "page2.jpg", "page10.jpg"])
    }

    @Test func caseDoesNotDecideTheOrder() {
        #expect(["b", "A", "a", "B"].sorted(by: NaturalOrder.less) == ["A", "a", "B", "b"])
    }

    @Test func leadingZerosAreIgnoredButTheOrderStaysTotal() {
        #expect(NaturalOrder.compare("img007", "img7") == 0)
        #expect(NaturalOrder.less("img007", "img7") != NaturalOrder.less("img7", "img007"))
    }

    @Test func aPrefixComesFirst() {
        #expect(NaturalOrder.less("photo", "photo 2"))
    }
}
