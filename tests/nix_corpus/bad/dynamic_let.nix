let ${"a" + "b"} = 1; in 2
