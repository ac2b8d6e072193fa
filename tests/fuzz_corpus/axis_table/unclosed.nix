{#sm}
unclosed
