(d "\\" |\"|)(eval)
(d "a\"b""c" x)
