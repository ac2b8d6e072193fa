{ a = __curPos; b = builtins.true or false; c = true; d = null; e = false; }
