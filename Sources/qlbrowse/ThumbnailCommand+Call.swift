import ArgumentParser

extension ThumbnailCommand {
    /// The command the full parser would make of `call`'s line.
    init(_ call: ThumbnailCall) {
        self.init()
        files = call.files
        recursive = call.recursive
        force = call.force
        shared = call.shared
        shard = call.shard
        noCache = call.noCache
        size = call.size
        scale = call.scale
        type = call.type
        output = call.output
        format = call.format
        progressive = call.progressive
        json = call.json
        jobs = call.jobs
        timeout = call.timeout
        noService = call.noService
    }

    /// The plain values of this command's line.
    var call: ThumbnailCall {
        ThumbnailCall(files: files, recursive: recursive, force: force, shared: shared, shard: shard, noCache: noCache, size: size,
                      scale: scale, type: type, output: output, format: format, progressive: progressive, json: json, jobs: jobs,
                      timeout: timeout, noService: noService)
    }
}
