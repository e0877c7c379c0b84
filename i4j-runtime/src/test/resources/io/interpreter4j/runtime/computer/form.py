# A form at known places on a screen without a window manager: name field, a box to tick, Submit.
import sys, tkinter as tk
root = tk.Tk()
root.overrideredirect(True)
root.geometry("1920x1080+0+0")
name = tk.Entry(root, font=("DejaVu Sans", 20))
name.place(x=300, y=200, width=600, height=60)
agreed = tk.IntVar()
box = tk.Checkbutton(root, text="I agree", variable=agreed, font=("DejaVu Sans", 20))
box.place(x=300, y=400, width=300, height=60)
def submit():
    with open("result.txt", "w") as f:
        f.write("name=%s\nagreed=%d\n" % (name.get(), agreed.get()))
    root.destroy()
tk.Button(root, text="Submit", command=submit, font=("DejaVu Sans", 20)).place(x=300, y=600, width=300, height=80)
root.wait_visibility(root)
root.update_idletasks()
root.update()
print("ready", flush=True)
root.mainloop()
