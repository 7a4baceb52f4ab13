// A pull reader over an XML document in memory, on libxml2's xmlTextReader: the elements'
// starts and ends with their attributes, and the first error with its line. Swift sees
// only these functions, so it needs none of libxml2's headers (or their include path).
#ifndef QUARRY_XML_H
#define QUARRY_XML_H

typedef struct quarry_xml quarry_xml;

enum {
    QUARRY_XML_ERROR = -1,
    QUARRY_XML_END = 0,
    QUARRY_XML_START_ELEMENT = 1,
    QUARRY_XML_END_ELEMENT = 2
};

// A reader over `length` bytes at `bytes`, which the caller keeps alive until
// quarry_xml_close. No network, no DTD loading, no entity substitution. NULL when out of
// memory.
quarry_xml *quarry_xml_open(const char *bytes, int length);
void quarry_xml_close(quarry_xml *reader);

// Moves to the next element start or end (an empty element `<a/>` gives both) and says
// which, QUARRY_XML_END at the document's end, or QUARRY_XML_ERROR.
int quarry_xml_next(quarry_xml *reader);

// The current element's qualified name (valid until the next call to quarry_xml_next).
const char *quarry_xml_name(quarry_xml *reader);

// The current start element's attributes, one a call: 1 with *name and *value set (valid
// until the next call), 0 when there are no more.
int quarry_xml_next_attribute(quarry_xml *reader, const char **name, const char **value);

// The line the reader is at (1-based).
int quarry_xml_line(quarry_xml *reader);

// The first error libxml2 reported, without its trailing newline, or NULL; and its line.
const char *quarry_xml_error(quarry_xml *reader);
int quarry_xml_error_line(quarry_xml *reader);

// Whether that error is libxml2's "Extra content at the end of the document", which its
// reader also reports for a document that ends inside an element.
int quarry_xml_error_is_document_end(quarry_xml *reader);

#endif
