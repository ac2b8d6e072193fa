declare -A A=([90]="H100, H200" [k]=$(x) [q]="a\"b" [e]=${V:-y})
B=(1 2 # c
 3)
B+=(4)
C[7]=v
cat <<-X
	D=(no)
	X
