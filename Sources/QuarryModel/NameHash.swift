/// FNV-1a of a name's UTF-8: the same in every session and on every machine, so a name
/// Quarry shortens (a PostgreSQL identifier past 63 bytes) or sets apart (a view's
/// temporary view beside a relation of its name) is found again at the next open.
package func nameHash(_ name: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}
