import gc
import sys

from specula.cli import main

code = main()
# The process ends here: what the command built (a model check's stored states and memos,
# millions of objects) is left to the operating system. Without this, the cyclic GC's
# collections at interpreter exit traverse all of it (~2 s of 26 s of CPU after
# MCLamportMutex's 724,274 states); exit handlers still run and output is still flushed.
gc.freeze()
sys.exit(code)
