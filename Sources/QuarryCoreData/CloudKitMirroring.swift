import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// `NSPersistentCloudKitContainer`'s bookkeeping in a store it mirrors: tables named
/// `ANSCK…` (`ANSCKRECORDMETADATA`, `ANSCKRECORDZONEMETADATA`, `ANSCKEXPORTOPERATION`, …)
/// for entities of Core Data's own (`NSCKRecordMetadata`, numbered from 16001 like the
/// persistent history's). They are not the app's entities. The mirror exports what
/// changed by reading the persistent history, so a save that writes that history (as
/// Quarry's saves do) is one the mirror will export, and the tables themselves are left
/// as they are; a mirrored store without history could not export a save, so saves to it
/// are refused.
enum CloudKitMirroring {
    /// The prefix of the mirror's tables.
    static let tablePrefix = "ANSCK"

    /// Whether the store holds any of the mirror's tables.
    static func isPresent(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 5) = ?)",
            arguments: [tablePrefix]) ?? false
    }

    /// Whether `name`, numbered `code` in `Z_PRIMARYKEY`, is one of the mirror's entities
    /// (its table is `A` and its name in capitals).
    static func isMirrorEntity(_ name: String, code: Int64) -> Bool {
        code > 16000 && name.hasPrefix("NSCK")
    }

    /// Why a save to a mirrored store that keeps no history is refused.
    static let refusal =
        "the store is mirrored to CloudKit (its ANSCK tables) but keeps no persistent history, from which the mirror exports changes; a save would never reach CloudKit, so nothing was written"
}
