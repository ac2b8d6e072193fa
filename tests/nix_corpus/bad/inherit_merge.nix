{ inherit a; a.b = 1; }
