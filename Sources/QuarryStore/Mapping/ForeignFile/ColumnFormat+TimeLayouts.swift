import QuarryModel

extension ColumnFormat {
    /// A whole count of time units since an epoch, as applications keep times in integer
    /// columns: never detected from values (a count of microseconds and one of seconds
    /// can look alike), only declared with `format()`.
    public enum EpochCount: String, CaseIterable, Equatable, Sendable {
        case unixMicroseconds = "unix-us"
        case unixNanoseconds = "unix-ns"
        /// Apple's reference date, 2001-01-01 (Core Data's dates).
        case cocoa = "cocoa"
        /// Nanoseconds since 2001-01-01 (iMessage).
        case cocoaNanoseconds = "cocoa-ns"
        /// Microseconds since 1601-01-01 (WebKit, Chrome).
        case webkit = "webkit"
        /// 100 ns since 1601-01-01 (Windows FILETIME).
        case filetime = "filetime"

        /// Units a second.
        public var perSecond: Int64 {
            switch self {
            case .cocoa: return 1
            case .unixMicroseconds, .webkit: return 1_000_000
            case .filetime: return 10_000_000
            case .unixNanoseconds, .cocoaNanoseconds: return 1_000_000_000
            }
        }

        /// The epoch, in Unix seconds.
        public var epoch: Int64 {
            switch self {
            case .unixMicroseconds, .unixNanoseconds: return 0
            case .cocoa, .cocoaNanoseconds: return 978_307_200
            case .webkit, .filetime: return -11_644_473_600
            }
        }

        public var scale: EntityStorage.NumericDateScale { .init(.count(perSecond: perSecond, epoch: epoch)) }
    }

    /// Whether the format keeps dates as numbers: one `format()` may declare on a number
    /// column, which then reads as dates.
    public var isNumberTime: Bool {
        switch self {
        case .unixSeconds, .unixMilliseconds, .julianDay, .epochCount: return true
        default: return false
        }
    }

    /// The count since an epoch the format is, whose 64-bit integer bounds the dates it
    /// holds (nanoseconds: the years 1677 to 2262); nil for another format.
    public var epochCount: EpochCount? { if case .epochCount(let count) = self { return count } else { return nil } }

    /// The names of the formats that keep dates as numbers, as `format()` takes them.
    public static let numberTimeNames = ["unix", "unix-real", "unix-ms"] + EpochCount.allCases.map(\.rawValue) + ["julian"]
}
