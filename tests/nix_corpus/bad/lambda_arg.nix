map x: x [ 1 ]
