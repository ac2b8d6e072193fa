{ inherit "${toString 1}"; }
