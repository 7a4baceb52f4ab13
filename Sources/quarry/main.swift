import Foundation
import QuarryShell

exit(QuarryMain.run(Array(CommandLine.arguments.dropFirst())))
