import Foundation
/// Finding the model an app ships beside its store, for a store that carries no model
/// cache (older stores; `surfjournal/`): a project keeps `App.sqlite` next to
/// `App.xcdatamodeld` or `App.momd`, or one folder below them. Only names are listed and
/// the model read (`load(contentsOf:)` opens nothing for writing), so finding it changes
/// no file.
import QuarryModel

extension CoreDataModel {
    /// The model file beside the store at `storePath`, or in its parent folder: in each
    /// folder in turn, `<store's name>.xcdatamodeld` or `.momd`, else the folder's only
    /// model (one `.xcdatamodeld`, one `.momd`, or one of each sharing a name, which are
    /// the same model in its two forms). Nil when there is none, or several to choose from.
    public static func modelBeside(store storePath: String) -> String? {
        let store = URL(fileURLWithPath: storePath)
        let stem = store.deletingPathExtension().lastPathComponent
        let folder = store.deletingLastPathComponent()
        for place in [folder, folder.deletingLastPathComponent()] {
            if let found = model(in: place, stem: stem) { return found }
            // The root has no parent: its "parent" is itself.
            if place.path == "/" { break }
        }
        return nil
    }

    /// The kinds looked for, Xcode's source first (it names its current version).
    private static let besideExtensions = ["xcdatamodeld", "momd"]

    private static func model(in folder: URL, stem: String) -> String? {
        guard let children = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        let models = children.filter { besideExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }.sorted()
        func isFolder(_ name: String) -> Bool {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &directory) && directory.boolValue
        }
        let candidates = models.filter(isFolder)
        for ext in besideExtensions {
            if let named = candidates.first(where: { $0 == stem + "." + ext }) { return folder.appendingPathComponent(named).path }
        }
        let names = Set(candidates.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent })
        guard names.count == 1 else { return nil }
        for ext in besideExtensions {
            if let only = candidates.first(where: { URL(fileURLWithPath: $0).pathExtension.lowercased() == ext }) {
                return folder.appendingPathComponent(only).path
            }
        }
        return nil
    }
}
