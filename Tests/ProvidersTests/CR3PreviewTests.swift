import Testing
import ThumbnailKit
@testable import Providers

/// The CR3 preview reader on a CR3 laid out byte by byte as Canon's cameras write it (the layout of
/// the EOS R6 file in the corpus: ftyp "crx ", moov with Canon's uuid box and CMT1, then the
/// preview uuid box with PRVW).
@Suite struct CR3PreviewTests {
    private func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
        be32(8 + content.count) + Array(type.utf8) + content
    }

    private func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    private func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// A big-endian TIFF with IFD0: Make, Model, Orientation.
    private func cmt1(orientation: Int) -> [UInt8] {
        let make = Array("Canon\0".utf8), model = Array("Canon EOS R6\0".utf8)
        let ifd = 8, valuesAt = ifd + 2 + 3 * 12 + 4
        var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(ifd) + be16(3)
        tiff += be16(0x010F) + be16(2) + be32(make.count) + be32(valuesAt)
        tiff += be16(0x0110) + be16(2) + be32(model.count) + be32(valuesAt + make.count)
        tiff += be16(0x0112) + be16(3) + be32(1) + be16(orientation) + be16(0)
        tiff += be32(0) + make + model
        return tiff
    }

    private func cr3(jpeg: [UInt8], declaredLength: Int? = nil, orientation: Int = 6) -> [UInt8] {
        let canon: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
        let preview: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]
        let ftyp = box("ftyp", Array("crx ".utf8) + be32(1) + Array("crx isom".utf8))
        let moov = box("moov", box("uuid", canon + box("CNCV", Array("CanonCR3_001/01.09.00/00.00.00".utf8)) + box("CMT1", cmt1(orientation: orientation)))
                          + box("mvhd", [UInt8](repeating: 0, count: 100)))
        let prvw = box("PRVW", be32(0) + be16(1) + be16(1620) + be16(1080) + be16(1) + be32(declaredLength ?? jpeg.count) + jpeg)
        return ftyp + moov + box("uuid", preview + [0, 0, 0, 0, 0, 0, 0, 1] + prvw) + box("free", [0, 0, 0, 0])
    }

    @Test func findsThePRVWJPEGWithTheCameraAndOrientation() throws {
        let folder = try TemporaryFolder()
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 7, count: 100) + [0xFF, 0xD9]
        let bytes = cr3(jpeg: jpeg)
        let path = try folder.write("IMG_0001.CR3", bytes: bytes)
        let preview = try #require(CR3Preview.locate(in: try FileBytes(path: path)))
        #expect(Array(bytes[preview.jpeg]) == jpeg)
        #expect(preview.width == 1620 && preview.height == 1080)
        #expect(preview.orientation == 6)
        #expect(preview.camera == "Canon EOS R6")
    }

    @Test func refusesWhatIsNotASoundPreview() throws {
        let folder = try TemporaryFolder()
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 7, count: 100)
        // A length past the PRVW box, a preview that is not a JPEG, a file that is not a CR3.
        for (name, bytes) in [("long.CR3", cr3(jpeg: jpeg, declaredLength: 5000)), ("png.CR3", cr3(jpeg: [0x89, 0x50] + jpeg)),
                              ("mp4.CR3", Array(cr3(jpeg: jpeg)[0..<8]) + Array("isom".utf8) + Array(cr3(jpeg: jpeg)[12...]))] {
            let path = try folder.write(name, bytes: bytes)
            #expect(CR3Preview.locate(in: try FileBytes(path: path)) == nil, "\(name)")
        }
        // Cut short inside the preview box.
        let cut = cr3(jpeg: jpeg)
        let path = try folder.write("cut.CR3", bytes: Array(cut[0..<(cut.count - 60)]))
        #expect(CR3Preview.locate(in: try FileBytes(path: path)) == nil)
    }
}
