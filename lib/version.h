#ifndef PMUCAL_VERSION
#define PMUCAL_VERSION "0.1.0"
#endif
