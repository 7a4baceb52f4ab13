/// Core Data's and Foundation's reference date, 2001-01-01, from which model files and
/// Core Data's stores count a date's seconds.
public enum ReferenceDate {
    /// Seconds from 1970-01-01 to 2001-01-01.
    public static let secondsSince1970 = 978_307_200.0
}
