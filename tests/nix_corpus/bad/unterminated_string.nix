{ a = "abc; }
