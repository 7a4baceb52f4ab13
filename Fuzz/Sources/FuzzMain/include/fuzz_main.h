// Nothing to import: this target only provides the executables' entry points.
