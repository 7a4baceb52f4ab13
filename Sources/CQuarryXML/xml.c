#include "quarry_xml.h"

#include <libxml/xmlreader.h>
#include <stdlib.h>
#include <string.h>

struct quarry_xml {
    xmlTextReaderPtr reader;
    // An empty element's end, given at the next call (the reader has no node for it).
    int pending_end;
    // Attributes are being walked (the reader stands on one of them).
    int in_attributes;
    char error[512];
    int has_error;
    int error_line;
    int error_code;
};

// libxml2 2.12 made the error it hands a handler const.
#if LIBXML_VERSION >= 21200
typedef const xmlError *quarry_xml_error_ptr;
#else
typedef xmlErrorPtr quarry_xml_error_ptr;
#endif

// Keeps the first error: the one that stopped the parse, usually, and the one to show.
static void on_error(void *argument, quarry_xml_error_ptr error) {
    quarry_xml *xml = argument;
    if (xml->has_error || error == NULL || error->level < XML_ERR_ERROR) return;
    const char *message = error->message != NULL ? error->message : "unknown error";
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == ' ')) length--;
    if (length >= sizeof xml->error) length = sizeof xml->error - 1;
    memcpy(xml->error, message, length);
    xml->error[length] = '\0';
    xml->error_line = error->line;
    xml->error_code = error->code;
    xml->has_error = 1;
}

quarry_xml *quarry_xml_open(const char *bytes, int length) {
    quarry_xml *xml = calloc(1, sizeof *xml);
    if (xml == NULL) return NULL;
    xml->reader = xmlReaderForMemory(bytes, length, NULL, NULL, XML_PARSE_NONET);
    if (xml->reader == NULL) {
        free(xml);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(xml->reader, on_error, xml);
    return xml;
}

void quarry_xml_close(quarry_xml *xml) {
    if (xml == NULL) return;
    xmlFreeTextReader(xml->reader);
    free(xml);
}

int quarry_xml_next(quarry_xml *xml) {
    if (xml->in_attributes) {
        xmlTextReaderMoveToElement(xml->reader);
        xml->in_attributes = 0;
    }
    if (xml->pending_end) {
        xml->pending_end = 0;
        return QUARRY_XML_END_ELEMENT;
    }
    for (;;) {
        int status = xmlTextReaderRead(xml->reader);
        if (status < 0 || xml->has_error) return QUARRY_XML_ERROR;
        if (status == 0) return QUARRY_XML_END;
        switch (xmlTextReaderNodeType(xml->reader)) {
        case XML_READER_TYPE_ELEMENT:
            xml->pending_end = xmlTextReaderIsEmptyElement(xml->reader) == 1;
            return QUARRY_XML_START_ELEMENT;
        case XML_READER_TYPE_END_ELEMENT:
            return QUARRY_XML_END_ELEMENT;
        default:
            break;
        }
    }
}

const char *quarry_xml_name(quarry_xml *xml) {
    const xmlChar *name = xmlTextReaderConstName(xml->reader);
    return name != NULL ? (const char *)name : "";
}

int quarry_xml_next_attribute(quarry_xml *xml, const char **name, const char **value) {
    if (xmlTextReaderMoveToNextAttribute(xml->reader) != 1) return 0;
    xml->in_attributes = 1;
    const xmlChar *n = xmlTextReaderConstName(xml->reader);
    const xmlChar *v = xmlTextReaderConstValue(xml->reader);
    *name = n != NULL ? (const char *)n : "";
    *value = v != NULL ? (const char *)v : "";
    return 1;
}

int quarry_xml_line(quarry_xml *xml) { return xmlTextReaderGetParserLineNumber(xml->reader); }

const char *quarry_xml_error(quarry_xml *xml) { return xml->has_error ? xml->error : NULL; }

int quarry_xml_error_line(quarry_xml *xml) { return xml->error_line; }

int quarry_xml_error_is_document_end(quarry_xml *xml) { return xml->has_error && xml->error_code == XML_ERR_DOCUMENT_END; }
