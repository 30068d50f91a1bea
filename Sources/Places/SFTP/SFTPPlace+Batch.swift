import FileSystemKit
import SystemKit
import ThumbnailKit

extension SFTPPlace {
    /// Folders the batch does not walk into (thumbnail repositories, a repository's history, trashes), as `FolderWalker` has them.
    static let batchSkippedFolders: Set<String> = [".sh_thumbnails", ".thumbnails", ".git", ".Trash", ".Trash-0"]

    /// `T` over SFTP: nothing of ours runs on the server, so the thumbnails are made here, into
    /// this computer's cache, from whole-file copies (`fileCache`, shared with the grid's full
    /// pictures: a file whose copy is kept is never read again, one read now is there for the
    /// grid and Quick Look after). One file at a time over the link, the walk's folders listed
    /// first. A file is not read when its name names no type made here, when it is larger than
    /// the copies' `largestFile`, or once this batch's reads would pass the copies' `limit` (the
    /// first copies would otherwise be trimmed by the last, and read again by the grid): the
    /// report says so for each. Nothing is written on the server (no `.sh_thumbnails` there).
    /// Ending the iteration stops the read under way.
    public func thumbnailFolders(_ roots: [String], options: BatchOptions) -> AsyncStream<ThumbnailBatch.Event> {
        let (stream, continuation) = AsyncStream<ThumbnailBatch.Event>.makeStream()
        guard let generator = thumbnails, let fileCache else {
            continuation.yield(.unlisted(roots.map { ($0, "\(name) is reached by SFTP and nothing here makes its thumbnails") }))
            continuation.yield(.found(total: 0))
            continuation.finish()
            return stream
        }
        let task = Task.detached(priority: .utility) { [self] in
            let (files, unlisted) = await batchWalk(roots)
            if !unlisted.isEmpty { continuation.yield(.unlisted(unlisted)) }
            continuation.yield(.found(total: files.count))
            let cache = thumbnailCache
            var budget = fileCache.limit
            var lost: FileSystemError?
            for file in files where !Task.isCancelled {
                // A server that stopped answering (connected again once, in vain) is not asked for each file left.
                if let lost {
                    continuation.yield(.file(path: file.path, outcome: .failed(ThumbnailError(.unreadable, "not read: \(lost.message)"))))
                    continue
                }
                let outcome = await batchThumbnail(file, box: options.box, ignoresStored: options.ignoresStored, budget: &budget,
                                                   fileCache: fileCache, cache: cache, generator: generator)
                if case .failed(let error) = outcome, error.code == .unreadable { lost = await linkLost(file.path) }
                continuation.yield(.file(path: file.path, outcome: outcome))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// One file's outcome: its thumbnail found or made from the copy kept here, read first if need be.
    private func batchThumbnail(_ file: PlaceItem, box: PixelSize, ignoresStored: Bool, budget: inout Int, fileCache: SFTPFileCache, cache: ThumbnailCache,
                                generator: ThumbnailGenerator) async -> ThumbnailBatch.Outcome {
        let type = ContentTypeTable.type(forFileName: file.path)
        guard let type, ![.folder, .archive, .unknown].contains(type.kind) else {
            return .skipped("no thumbnailer for \(type?.identifier ?? "a name without a known type") (not read over SFTP to find out)")
        }
        guard file.size > 0 else { return .skipped("the file is empty") }
        guard file.size <= fileCache.largestFile else { return .skipped("larger than \(fileCache.largestFile >> 20) MB: not read whole over SFTP") }
        var copy = fileCache.copy(of: file.path, at: address, size: file.size, modified: file.modified)
        if let copy, !ignoresStored, cache.hasValidThumbnail(forFile: copy, box: box, sharedToo: false) { return .alreadyCached }
        if copy == nil {
            guard file.size <= budget else {
                return .skipped("not read: this batch read \(fileCache.limit >> 20) MB over SFTP, all the copies kept here may hold")
            }
            budget -= file.size
            copy = await sharedDownload(file, first: [])
        }
        if Task.isCancelled { return .failed(ThumbnailError(.cancelled, "cancelled")) }
        guard let copy else { return .failed(ThumbnailError(.unreadable, "could not be read whole over SFTP (changed, gone, or the link lost)")) }
        return await ThumbnailBatch.make(copy, box: box, generator: generator)
    }

    /// Why the server cannot be asked any more (after a failed read of `path`), or nil when it answers.
    private func linkLost(_ path: String) async -> FileSystemError? {
        do throws(FileSystemError) {
            _ = try await item(at: path)
            return nil
        } catch {
            return [.notFound, .permissionDenied, .cancelled].contains(error.code) ? nil : error
        }
    }

    /// The files under `roots` (folders walked, files taken as they are; links to folders not
    /// followed), and the folders that could not be listed, with why.
    private func batchWalk(_ roots: [String]) async -> ([PlaceItem], [(folder: String, reason: String)]) {
        var files: [PlaceItem] = [], unlisted: [(folder: String, reason: String)] = []
        var folders: [String] = []
        for root in roots {
            do throws(FileSystemError) {
                let item = try await item(at: root)
                if item.isDirectory { folders.append(root) } else if item.isRegularFile { files.append(item) }
            } catch {
                unlisted.append((root, error.message))
            }
        }
        while let folder = folders.popLast(), !Task.isCancelled {
            do {
                let listed = try await entries(of: folder)
                for handle in listed.handles {
                    let entry = listed.entry(handle)
                    let path = entry.path(in: folder)
                    if entry.isDirectory {
                        if !entry.isSymbolicLink, !Self.batchSkippedFolders.contains(entry.name) { folders.append(path) }
                    } else {
                        files.append(PlaceItem(path: path, isDirectory: false, isSymbolicLink: entry.isSymbolicLink, isRegularFile: true,
                                               size: entry.size, modified: entry.modified))
                    }
                }
            } catch {
                unlisted.append((folder, (error as? FileSystemError)?.message ?? "\(error)"))
            }
        }
        return (files, unlisted)
    }
}
