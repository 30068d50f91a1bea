import SystemKit

/// The headers of a short call, read and written without Codable: the hello both ways, a
/// thumbnail request and its cancel, and the answers a thumbnail gets (its type, its pictures,
/// done, a failure). A one-file `qlbrowse thumbnail` spent about 8 M of its 22 M instructions
/// in Foundation's JSON coders, nearly all on their first use; a new worker pays the same.
///
/// The JSON is exactly the shape Codable gives these values (`{"case":{"_0":{…}}}`, a nil left
/// out), so either end may use either way: every other request and answer, and any header this
/// cannot read, go through `WorkerCodec`'s Codable path, which also words the errors.
/// `WorkerHeaderShortcutTests` checks each against Codable in both directions.
enum WorkerHeaderShortcut {
    // MARK: requests

    /// The header of `request` with `deadline`, or nil for a request this does not write.
    static func header(_ request: WorkerRequest, deadline: WorkerDeadline?) -> [UInt8]? {
        let body: JSONTree
        switch request {
        case .hello(let identity): body = .object([("hello", .object([("identity", .string(identity))]))])
        case .cancel: body = .object([("cancel", .object([]))])
        case .thumbnails(let asked):
            var fields: [(key: String, value: JSONTree)] = [("path", .string(asked.path)), ("box", size(asked.box)),
                                                            ("types", .array(asked.types.map { .string($0.rawValue) }))]
            if let type = asked.contentType { fields.append(("contentType", contentType(type))) }
            fields += [("wantsFacts", .bool(asked.wantsFacts)), ("embeddedSuffices", .bool(asked.embeddedSuffices))]
            body = .object([("thumbnails", .object([("_0", .object(fields))]))])
        default: return nil
        }
        var header: [(key: String, value: JSONTree)] = [("request", body)]
        if let deadline {
            var fields: [(key: String, value: JSONTree)] = []
            if let seconds = deadline.seconds {
                guard let number = JSONTree.number(seconds) else { return nil }
                fields.append(("seconds", number))
            }
            if let nanos = deadline.monotonicNanos { fields.append(("monotonicNanos", .number(String(nanos)))) }
            header.append(("deadline", .object(fields)))
        }
        return JSONTree.object(header).bytes
    }

    /// The request and deadline a header holds, or nil when it is not one this reads.
    static func request(in header: ArraySlice<UInt8>) -> (WorkerRequest, WorkerDeadline?)? {
        guard let tree = JSONTree.parse(header), let members = tree.members, let body = tree["request"]?.members, body.count == 1,
              members.allSatisfy({ $0.key == "request" || $0.key == "deadline" }) else { return nil }
        var deadline: WorkerDeadline?
        if let given = tree["deadline"] {
            guard let fields = given.members, fields.allSatisfy({ ["seconds", "monotonicNanos"].contains($0.key) }) else { return nil }
            deadline = WorkerDeadline(seconds: given["seconds"]?.double, monotonicNanos: given["monotonicNanos"]?.int64)
            if (given["seconds"] != nil && deadline?.seconds == nil) || (given["monotonicNanos"] != nil && deadline?.monotonicNanos == nil) { return nil }
        }
        let (name, value) = body[0]
        switch name {
        case "hello":
            guard let identity = value["identity"]?.string, value.members?.count == 1 else { return nil }
            return (.hello(identity: identity), deadline)
        case "cancel":
            guard value.members?.isEmpty == true else { return nil }
            return (.cancel, deadline)
        case "thumbnails":
            guard let fields = value["_0"], value.members?.count == 1, let path = fields["path"]?.string, let box = size(fields["box"]),
                  let types = fields["types"]?.array?.map({ $0.string.flatMap(RepresentationType.init(rawValue:)) }), !types.contains(nil),
                  let wantsFacts = fields["wantsFacts"]?.bool, let embeddedSuffices = fields["embeddedSuffices"]?.bool,
                  fields.members?.allSatisfy({ ["path", "box", "types", "contentType", "wantsFacts", "embeddedSuffices"].contains($0.key) }) == true
            else { return nil }
            var type: ContentType?
            if let given = fields["contentType"] {
                guard let known = contentType(given) else { return nil }
                type = known
            }
            var asked = WorkerRequest.Thumbnails(path: path, box: box, types: [], contentType: type, wantsFacts: wantsFacts, embeddedSuffices: embeddedSuffices)
            asked.types = types.compactMap { $0 }
            return (.thumbnails(asked), deadline)
        default: return nil
        }
    }

    // MARK: answers

    /// The header of `answer`, or nil for an answer this does not write.
    static func header(_ answer: WorkerAnswer) -> [UInt8]? {
        let body: JSONTree
        switch answer {
        case .hello(let identity): body = .object([("hello", .object([("identity", .string(identity))]))])
        case .replaced(let reason): body = .object([("replaced", .object([("reason", .string(reason))]))])
        case .contentType(let type): body = .object([("contentType", .object([("_0", contentType(type))]))])
        case .image(let picture):
            let facts = JSONTree.array(picture.facts.map { .object([("label", .string($0.label)), ("value", .string($0.value))]) })
            body = .object([("image", .object([("_0", .object([("type", .string(picture.type.rawValue)), ("size", size(picture.size)),
                                                                ("source", .string(picture.source)), ("facts", facts)]))]))])
        case .done: body = .object([("done", .object([]))])
        case .failure(let failure):
            var fields: [(key: String, value: JSONTree)] = [("code", .string(failure.code.rawValue)), ("reason", .string(failure.reason))]
            if let type = failure.contentType { fields.append(("contentType", contentType(type))) }
            body = .object([("failure", .object([("_0", .object(fields))]))])
        default: return nil
        }
        return body.bytes
    }

    /// The answer a header holds, or nil when it is not one this reads.
    static func answer(in header: ArraySlice<UInt8>) -> WorkerAnswer? {
        guard let members = JSONTree.parse(header)?.members, members.count == 1 else { return nil }
        let (name, value) = members[0]
        guard let fields = value.members else { return nil }
        let only = fields.count == 1 ? fields[0] : nil
        switch name {
        case "hello":
            guard only?.key == "identity", let identity = only?.value.string else { return nil }
            return .hello(identity: identity)
        case "replaced":
            guard only?.key == "reason", let reason = only?.value.string else { return nil }
            return .replaced(reason: reason)
        case "contentType":
            guard only?.key == "_0", let type = only.flatMap({ contentType($0.value) }) else { return nil }
            return .contentType(type)
        case "image":
            guard only?.key == "_0", let picture = only?.value, picture.members?.count == 4,
                  let type = picture["type"]?.string.flatMap(RepresentationType.init(rawValue:)), let size = size(picture["size"]),
                  let source = picture["source"]?.string, let facts = picture["facts"]?.array?.map(fact), !facts.contains(nil)
            else { return nil }
            return .image(.init(type: type, size: size, source: source, facts: facts.compactMap { $0 }))
        case "done":
            return fields.isEmpty ? .done : nil
        case "failure":
            guard only?.key == "_0", let failure = only?.value, let code = failure["code"]?.string.flatMap(ThumbnailError.Code.init(rawValue:)),
                  let reason = failure["reason"]?.string, failure.members?.count == (failure["contentType"] == nil ? 2 : 3) else { return nil }
            var type: ContentType?
            if let given = failure["contentType"] {
                guard let known = contentType(given) else { return nil }
                type = known
            }
            return .failure(.init(ThumbnailError(code, reason, contentType: type)))
        default: return nil
        }
    }

    // MARK: the values inside

    private static func size(_ size: PixelSize) -> JSONTree {
        .object([("width", .number(size.width)), ("height", .number(size.height))])
    }

    private static func size(_ tree: JSONTree?) -> PixelSize? {
        guard let tree, tree.members?.count == 2, let width = tree["width"]?.int, let height = tree["height"]?.int else { return nil }
        return PixelSize(width: width, height: height)
    }

    private static func contentType(_ type: ContentType) -> JSONTree { .object([("identifier", .string(type.identifier))]) }

    /// A content type as Codable wrote it. Codable's init keeps the identifier as written and
    /// `ContentType.init` lowers it: one not in lower case is left to Codable.
    private static func contentType(_ tree: JSONTree) -> ContentType? {
        guard tree.members?.count == 1, let identifier = tree["identifier"]?.string, identifier == identifier.lowercased() else { return nil }
        return ContentType(identifier)
    }

    private static func fact(_ tree: JSONTree) -> FileFact? {
        guard tree.members?.count == 2, let label = tree["label"]?.string, let value = tree["value"]?.string else { return nil }
        return FileFact(label, value)
    }
}
