1 /* never closed
