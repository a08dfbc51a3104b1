// CComposeShims is header-only: every function is `static inline` in include/CComposeShims.h.
// This file gives SwiftPM a source to build the target from.
#include "CComposeShims.h"
