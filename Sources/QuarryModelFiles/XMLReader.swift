/// One libxml2 text reader over a copy of a document's bytes: the only owner of both, freed
/// together. It gives the elements' starts (with their attributes) and ends in order, as
/// model XML needs nothing else, and the first error libxml2 reports with its line.
import CQuarryXML
import Foundation

final class XMLReader {
    enum Event {
        case start(name: String, attributes: [String: String])
        case end(name: String)
        case done
        case failed
    }

    private let bytes: UnsafeMutableBufferPointer<CChar>
    private let handle: OpaquePointer

    /// Nil when `data` is over 2 GiB (libxml2 takes an `int` length) or memory ran out.
    init?(_ data: Data) {
        guard data.count < Int(Int32.max) else { return nil }
        let bytes = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(data.count, 1))
        bytes.withMemoryRebound(to: UInt8.self) { _ = data.copyBytes(to: $0) }
        guard let handle = quarry_xml_open(bytes.baseAddress, Int32(data.count)) else {
            bytes.deallocate()
            return nil
        }
        self.bytes = bytes
        self.handle = handle
    }

    deinit {
        quarry_xml_close(handle)
        bytes.deallocate()
    }

    func next() -> Event {
        switch quarry_xml_next(handle) {
        case Int32(QUARRY_XML_START_ELEMENT):
            let name = String(cString: quarry_xml_name(handle))
            var attributes: [String: String] = [:]
            var key: UnsafePointer<CChar>?
            var value: UnsafePointer<CChar>?
            while quarry_xml_next_attribute(handle, &key, &value) == 1, let key, let value {
                attributes[String(cString: key)] = String(cString: value)
            }
            return .start(name: name, attributes: attributes)
        case Int32(QUARRY_XML_END_ELEMENT):
            return .end(name: String(cString: quarry_xml_name(handle)))
        case Int32(QUARRY_XML_END):
            return .done
        default:
            return .failed
        }
    }

    /// The line the reader is at.
    var line: Int { Int(quarry_xml_line(handle)) }

    /// Whether the error is libxml2's "Extra content at the end of the document", which
    /// it also gives for a document that ends inside an element.
    var errorIsDocumentEnd: Bool { quarry_xml_error_is_document_end(handle) == 1 }

    /// The first error libxml2 reported and its line, if any.
    var error: (message: String, line: Int)? {
        guard let message = quarry_xml_error(handle) else { return nil }
        return (String(cString: message), Int(quarry_xml_error_line(handle)))
    }
}
