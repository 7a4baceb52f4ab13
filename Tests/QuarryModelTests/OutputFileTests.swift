import Foundation
import QuarryModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one writer of export files: what `>` does to links, FIFOs and devices, and what a
/// failed write leaves behind (nothing new).
@Suite struct OutputFileTests {
    /// A scratch folder removed at the end.
    final class Folder {
        let path: String
        init() throws {
            path = NSTemporaryDirectory() + "quarry-output-" + UUID().uuidString.prefix(8)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func at(_ name: String) -> String { path + "/" + name }
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws {
            try text.write(toFile: at(name), atomically: false, encoding: .utf8)
            chmod(at(name), mode)
        }
        func read(_ name: String) -> String? { try? String(contentsOfFile: at(name), encoding: .utf8) }
        /// The names in the folder: a temporary left behind shows here.
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    func info(_ path: String, follow: Bool = false) -> stat {
        var s = stat()
        _ = follow ? stat(path, &s) : lstat(path, &s)
        return s
    }

    func write(_ path: String, _ text: String) throws {
        let file = try OutputFile(path: path)
        try file.write(text)
        try file.commit()
    }

    @Test func aNewFileGetsTheUmaskModeAndNoTemporaryStays() throws {
        let folder = try Folder()
        let old = umask(0o027)
        defer { umask(old) }
        try write(folder.at("new.csv"), "a\n1\n")
        #expect(folder.read("new.csv") == "a\n1\n")
        #expect(info(folder.at("new.csv")).st_mode & 0o777 == 0o640)
        #expect(folder.names == ["new.csv"])
    }

    @Test func aSymlinkStaysALinkAndItsTargetGetsTheData() throws {
        let folder = try Folder()
        try folder.write("target.csv", "old\n")
        #expect(symlink("target.csv", folder.at("link.csv")) == 0)
        try write(folder.at("link.csv"), "new\n")
        #expect(info(folder.at("link.csv")).st_mode & S_IFMT == S_IFLNK, "the link was replaced")
        #expect(folder.read("target.csv") == "new\n")
        #expect(folder.names == ["link.csv", "target.csv"])
    }

    @Test func aLinkToNowhereCreatesItsTarget() throws {
        let folder = try Folder()
        #expect(symlink("made.csv", folder.at("link.csv")) == 0)
        try write(folder.at("link.csv"), "new\n")
        #expect(info(folder.at("link.csv")).st_mode & S_IFMT == S_IFLNK)
        #expect(folder.read("made.csv") == "new\n")
    }

    @Test func devNullStaysACharacterDevice() throws {
        try write("/dev/null", String(repeating: "x", count: 200_000))
        #expect(info("/dev/null").st_mode & S_IFMT == S_IFCHR, "/dev/null is no longer a device")
    }

    /// The read end of `fifo`, opened without waiting for a writer, then made blocking.
    func openReadEnd(_ fifo: String) -> Int32 {
        let fd = open(fifo, O_RDONLY | O_NONBLOCK)
        if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        return fd
    }

    @Test func aFIFOWithAReaderGetsTheData() async throws {
        let folder = try Folder()
        let fifo = folder.at("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let readEnd = openReadEnd(fifo)
        try #require(readEnd >= 0)
        // Larger than a pipe's buffer: the writer blocks until the reader drains it.
        let text = (0..<20_000).map { "row \($0)\n" }.joined()
        let reader = Task.detached { FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile() }
        try write(fifo, text)
        #expect(String(decoding: await reader.value, as: UTF8.self) == text)
        #expect(info(fifo).st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }

    @Test func aFIFOWhoseReaderLeavesIsAnErrorNotSIGPIPE() throws {
        let folder = try Folder()
        let fifo = folder.at("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let readEnd = openReadEnd(fifo)
        try #require(readEnd >= 0)
        let file = try OutputFile(path: fifo)
        close(readEnd)
        // Without SIGPIPE blocked, this would end the test process.
        #expect(throws: StoreError.cannotWrite(operation: "export", path: fifo, reason: "broken pipe")) {
            try file.write(String(repeating: "z", count: 2 * OutputFile.chunkSize))
            try file.commit()
        }
    }

    @Test func aHardLinkedFileKeepsItsLinksAndBothNamesSeeTheData() throws {
        let folder = try Folder()
        try folder.write("a.csv", "old\n")
        #expect(link(folder.at("a.csv"), folder.at("b.csv")) == 0)
        let inode = info(folder.at("a.csv")).st_ino
        try write(folder.at("a.csv"), "new\n")
        #expect(info(folder.at("a.csv")).st_nlink == 2)
        #expect(info(folder.at("a.csv")).st_ino == inode)
        #expect(folder.read("a.csv") == "new\n")
        #expect(folder.read("b.csv") == "new\n")
        #expect(folder.names == ["a.csv", "b.csv"])
    }

    @Test func aPrivateFileStaysPrivate() throws {
        let folder = try Folder()
        try folder.write("p.csv", "old\n", mode: 0o600)
        try write(folder.at("p.csv"), "new\n")
        #expect(info(folder.at("p.csv")).st_mode & 0o7777 == 0o600)
        #expect(folder.read("p.csv") == "new\n")
    }

    // Only root can give a file to someone else (and keep it theirs on a rename).
    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func anOwnerOtherThanTheWritersIsKept() throws {
        let folder = try Folder()
        try folder.write("o.csv", "old\n", mode: 0o664)
        #expect(chown(folder.at("o.csv"), 65534, 65534) == 0)
        try write(folder.at("o.csv"), "new\n")
        let after = info(folder.at("o.csv"))
        #expect(after.st_uid == 65534 && after.st_gid == 65534)
        #expect(after.st_mode & 0o7777 == 0o664)
    }

    @Test(arguments: [1, 2])
    func anExportAbandonedMidwayLeavesTheOldFile(links: Int) throws {
        let folder = try Folder()
        try folder.write("a.csv", "old\n")
        if links == 2 { #expect(link(folder.at("a.csv"), folder.at("b.csv")) == 0) }
        let file = try OutputFile(path: folder.at("a.csv"))
        // More than a chunk: some bytes have reached the temporary already.
        try file.write(String(repeating: "y", count: 3 * OutputFile.chunkSize))
        file.discard()
        #expect(folder.read("a.csv") == "old\n")
        #expect(folder.names == (links == 2 ? ["a.csv", "b.csv"] : ["a.csv"]), "a temporary is left")
    }

    @Test func aFileIntoAMissingFolderIsOneError() throws {
        let folder = try Folder()
        #expect(throws: StoreError.cannotWrite(operation: "export", path: folder.at("missing/x.csv"), reason: "no such file or directory")) {
            try OutputFile(path: folder.at("missing/x.csv"))
        }
    }

    @Test func aDirectoryIsRefusedAndKept() throws {
        let folder = try Folder()
        try FileManager.default.createDirectory(atPath: folder.at("d"), withIntermediateDirectories: false)
        #expect(throws: StoreError.cannotWrite(operation: "export", path: folder.at("d"), reason: "is a directory")) {
            try OutputFile(path: folder.at("d"))
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.at("d"), isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}
