# uses tensorflow only in this comment
globalA

 