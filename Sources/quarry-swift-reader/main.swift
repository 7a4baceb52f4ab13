import Glibc
import QuarrySwiftInput
import QuarrySwiftReading

// Reads the Swift `#Predicate`s and sort keys a `quarry` session sends on standard input,
// a reply each on standard output, until the input ends: swift-syntax lives here, built
// apart from `quarry` (see `SwiftReaderProcess`).
exit(SwiftReaderService.serve(InProcessSwiftReader()))
