import Foundation
import Providers
import Testing

/// The movie inside a Motion Photo, found the ways phones write it: Google's XMP (as attributes or
/// elements, the old MicroVideo offset or the Container directory) and Samsung's trailer; an
/// ordinary JPEG, or an offset that does not lead to an MP4, is no Motion Photo.
@Suite struct MotionPhotoTests {
    private let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + Array(repeating: 0x20, count: 200)
    /// The start of an MP4: a box size, then "ftyp".
    private let mp4: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + Array(repeating: 0, count: 300)

    private func photo(_ xmp: String, movie: [UInt8]? = nil, trailer: [UInt8] = []) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let movie = movie ?? mp4
        let text = xmp.replacingOccurrences(of: "LENGTH", with: String(movie.count))
        let path = try folder.write("PXL.MP.jpg", bytes: jpeg + Array(text.utf8) + [0xFF, 0xD9] + movie + trailer)
        return (folder, path)
    }

    @Test func googlesMicroVideoOffsetAsAttributeOrElement() throws {
        let (keep, attribute) = try photo(#"<rdf:Description GCamera:MicroVideo="1" GCamera:MicroVideoOffset="LENGTH"/>"#)
        let size = try FileManager.default.attributesOfItem(atPath: attribute)[.size] as! Int
        #expect(MotionPhoto.movieOffset(path: attribute) == size - mp4.count)
        let (keep2, element) = try photo("<GCamera:MicroVideo>1</GCamera:MicroVideo><GCamera:MicroVideoOffset>LENGTH</GCamera:MicroVideoOffset>")
        #expect(MotionPhoto.movieOffset(path: element) != nil)
        _ = (keep, keep2)
    }

    @Test func googlesContainerDirectory() throws {
        let xmp = #"<Container:Directory><rdf:Seq><rdf:li><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0"/></rdf:li>"#
            + #"<rdf:li><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="LENGTH"/></rdf:li></rdf:Seq></Container:Directory>"#
        let (keep, path) = try photo(xmp)
        #expect(MotionPhoto.movieOffset(path: path) != nil)
        #expect(MotionPhoto.mediaURL(path: path, movieAt: MotionPhoto.movieOffset(path: path)).url.hasPrefix("subfile,,start,"))
        _ = keep
    }

    @Test func samsungsTrailer() throws {
        let (keep, path) = try photo("", movie: Array("MotionPhoto_Data".utf8) + mp4, trailer: Array("....SEFHSEFT".utf8))
        #expect(MotionPhoto.movieOffset(path: path) != nil)
        _ = keep
    }

    @Test func ordinaryPicturesAndWrongOffsetsAreNot() throws {
        let (keep, plain) = try photo("<x:xmpmeta/>", movie: [])
        #expect(MotionPhoto.movieOffset(path: plain) == nil && MotionPhoto.mediaURL(path: plain, movieAt: MotionPhoto.movieOffset(path: plain)).url == plain)
        let (keep2, lying) = try photo(#"GCamera:MicroVideoOffset="LENGTH""#, movie: Array(repeating: 9, count: 300))
        #expect(MotionPhoto.movieOffset(path: lying) == nil, "the offset must lead to an MP4")
        #expect(MotionPhoto.movieOffset(path: "/nonexistent.jpg") == nil)
        _ = (keep, keep2)
    }
}
