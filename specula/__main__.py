from specula.cli import console

console()
