import Testing
@testable import SystemKit

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

@Suite struct NaturalPrefixKeyTests {
    private func key(_ name: String) -> UInt64 { Array(name.utf8).withUnsafeBufferPointer { NaturalOrder.prefixKey($0) } }

    @Test func prefixKeysNeverContradictTheFullComparison() {
        let names = ["a", "A2", "a10", "a02", "a2b", "b", "x-1", "x_1", "x:1", "x9", "x12345678901", "x12345678902", "x:", "z9z", "z10z", "",
                     "007", "7", "IMG_0001.jpg", "img_0001.JPG", "IMG_0010.jpg", "file000123.txt", "file000124.txt", "file99999.txt", "file100000.txt",
                     "photo", "photo 2", "photo2", "photo10", "0", "00", "1234567890", "999999999"]
        for a in names {
            for b in names {
                let (ka, kb) = (key(a), key(b))
                guard ka != kb else { continue }
                let full = Array(a.utf8).withUnsafeBufferPointer { x in Array(b.utf8).withUnsafeBufferPointer { y in NaturalOrder.compareFolded(x, y) } }
                #expect(full != 0 && (ka < kb) == (full < 0), "\(a) vs \(b)")
            }
        }
    }
}
