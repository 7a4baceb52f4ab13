import CLua
import CQuarryShim
import Foundation
import QuarryStore

/// The parts of a date a script reads as fields (`d.year`), in UTC.
enum DateComponent: String, CaseIterable {
    case year, month, day, hour, minute, second, weekday, yday

    func value(of seconds: Double) -> Int {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return 0 }
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
