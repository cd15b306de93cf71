// The runtime's own start: the floor every dispatch stands on.
console.log("hello");
