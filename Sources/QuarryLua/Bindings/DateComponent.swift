import CLua
import CQuarryShim
import Foundation
import QuarryModel
import QuarryStore

/// The parts of a date a script reads as fields (`d.year`), in UTC.
enum DateComponent: String, CaseIterable {
    case year, month, day, hour, minute, second, weekday, yday

    /// Nil for a date outside the years 0001 to 9999 (PostgreSQL's `-infinity`, a Unix
    /// count of 1e300), as a date part in a predicate is (`DatePart`): converting such
    /// seconds to `time_t` would trap.
    func value(of seconds: Double) -> Int? {
        guard Value.dateRange.contains(seconds) else { return nil }
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return nil }
        switch self {
        case .year: return Int(parts.tm_year) + 1900
        case .month: return Int(parts.tm_mon) + 1
        case .day: return Int(parts.tm_mday)
        case .hour: return Int(parts.tm_hour)
        case .minute: return Int(parts.tm_min)
        case .second: return Int(parts.tm_sec)
        case .weekday: return Int(parts.tm_wday) + 1
        case .yday: return Int(parts.tm_yday) + 1
        }
    }
}
