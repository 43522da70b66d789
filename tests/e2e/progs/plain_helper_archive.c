/* plain_helper_object's program with the library built without capecc linked as a static
   library found through -L/-l (capecc links a copy with its .data/.bss renamed). */
// e2e: plain-helper: plain/counters.c archive
#include "plain_helper_object.c"
